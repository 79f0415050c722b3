import { CopyableId } from '../../../components/copyable-id';
import { JsonView } from '../../../components/json-view';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Artifact } from '../api/tasks';
import { AuditReportView } from './audit-report-view';
import { EmailDraftView } from './email-draft-view';

function Body({ artifact }: { artifact: Artifact }) {
  if (artifact.type === 'ai_readiness.audit_report') return <AuditReportView report={artifact.data} />;
  if (artifact.type === 'sales.email_draft') return <EmailDraftView draft={artifact.data} />;
  return <JsonView value={artifact.data} label={`Data of ${artifact.type}`} />;
}

/** One artifact, rendered readably where its type is known; anchored so the timeline can link to it. */
export function ArtifactView({ artifact }: { artifact: Artifact }) {
  return (
    <section className="card" id={`artifact-${artifact.artifact_id}`} aria-labelledby={`artifact-title-${artifact.artifact_id}`}>
      <h3 id={`artifact-title-${artifact.artifact_id}`}>{artifact.type}</h3>
      <dl className="facts">
        <dt>Artifact</dt>
        <dd>
          <CopyableId value={artifact.artifact_id} label="artifact id" />
        </dd>
        <dt>Created</dt>
        <dd>
          <RelativeTime value={artifact.created_at} />
        </dd>
        {artifact.approval_status && (
          <>
            <dt>Approval</dt>
            <dd>
              <StatusBadge status={artifact.approval_status} />
            </dd>
          </>
        )}
        {artifact.expires_at && (
          <>
            <dt>Expires</dt>
            <dd>
              <RelativeTime value={artifact.expires_at} />
            </dd>
          </>
        )}
      </dl>
      <Body artifact={artifact} />
    </section>
  );
}
