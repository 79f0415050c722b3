import { useState } from 'react';
import { Link } from 'react-router';
import { CopyableId } from '../../../components/copyable-id';
import { StatusBadge } from '../../../components/status-badge';
import { usePermission } from '../../../lib/permissions';
import { useUpdateFinding, type Finding } from '../api/use-findings';
import { detectorLabel } from '../lib/finding-filters';
import { DismissDialog } from './dismiss-dialog';

function Details({ finding }: { finding: Finding }) {
  return (
    <details>
      <summary>Details</summary>
      {finding.description && <p>{finding.description}</p>}
      {finding.remediation && (
        <p>
          <strong>How to fix: </strong>
          {finding.remediation}
        </p>
      )}
      <dl className="facts">
        {finding.cvss_score != null && (
          <>
            <dt>CVSS</dt>
            <dd>{finding.cvss_score}</dd>
          </>
        )}
        {finding.location?.selector && (
          <>
            <dt>Element</dt>
            <dd>
              <code>{finding.location.selector}</code>
            </dd>
          </>
        )}
        {finding.dismissed_reason && (
          <>
            <dt>Dismissed as</dt>
            <dd>
              {finding.dismissed_reason.replace(/_/g, ' ')}
              {finding.comment ? `: ${finding.comment}` : ''}
            </dd>
          </>
        )}
        <dt>Finding</dt>
        <dd>
          <CopyableId value={finding.id} label="finding id" />
        </dd>
      </dl>
      {finding.other_locations && finding.other_locations.length > 0 && (
        <>
          <p>
            <strong>Also on {(finding.page_count ?? finding.other_locations.length + 1) - 1} other pages</strong> (the same element, from one template):
          </p>
          <ul aria-label="Other pages">
            {finding.other_locations.map((place) => (
              <li key={place.url} className="wrap-anywhere">
                {place.url}
                {place.line !== undefined && `:${place.line}`}
              </li>
            ))}
          </ul>
        </>
      )}
      {finding.references && finding.references.length > 0 && (
        <ul>
          {finding.references.map((url) => (
            <li key={url}>
              <a href={url} rel="noreferrer noopener" target="_blank">
                {url}
              </a>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

/** One finding: severity, what and where, its status, and `Dismiss` / `Reopen` for operators. */
export function FindingRow({ finding, projectId }: { finding: Finding; projectId: string }) {
  const permission = usePermission('operator');
  const [dismissing, setDismissing] = useState(false);
  const reopen = useUpdateFinding(finding.id);
  return (
    <tr>
      <td>
        <StatusBadge status={finding.severity} />
      </td>
      <td>
        <strong>{finding.title}</strong>
        <div>
          <Link to={`/scans/projects/${projectId}/rules/${encodeURIComponent(finding.rule_id)}`} aria-label={`History of rule ${finding.rule_id}`}>
            <code>{finding.rule_id}</code>
          </Link>
        </div>
        <Details finding={finding} />
      </td>
      <td>{detectorLabel(finding.detector)}</td>
      <td className="wrap-anywhere">
        {finding.location?.url}
        {finding.location?.line !== undefined && `:${finding.location.line}`}
        {finding.page_count !== undefined && finding.page_count > 1 && <div className="muted">and {finding.page_count - 1} more pages</div>}
      </td>
      <td>
        <StatusBadge status={finding.status} />
        {finding.regression && <div className="field-error">came back</div>}
      </td>
      <td>
        {permission.allowed &&
          (finding.status === 'dismissed' ? (
            <button type="button" className="button small" disabled={reopen.isPending} aria-label={`Reopen ${finding.title}`} onClick={() => reopen.mutate({ status: 'open' })}>
              Reopen
            </button>
          ) : (
            <button type="button" className="button small" aria-label={`Dismiss ${finding.title}`} onClick={() => setDismissing(true)}>
              Dismiss
            </button>
          ))}
        {dismissing && <DismissDialog finding={finding} onClose={() => setDismissing(false)} />}
      </td>
    </tr>
  );
}
