import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IfAllowed } from '../../../components/if-allowed';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import { useCancelScan, type DetectorResult, type Scan } from '../api/use-scans';
import { detectorLabel, SEVERITIES } from '../lib/finding-filters';
import { isScanActive, scanProgress } from '../lib/scan-progress';
import { CrawlProblems } from './crawl-problems';
import { Risk } from './risk';

function Progress({ scan }: { scan: Scan }) {
  const { done, total } = scanProgress(scan);
  return (
    <div className="field">
      <label htmlFor="scan-progress">
        {scan.status === 'pending' ? 'Waiting to start' : 'Scanning'}: {done} of {total} detectors finished
      </label>
      <progress id="scan-progress" max={total} value={done} />
      {scan.estimated_duration_seconds !== undefined && <span className="field-hint">Usually takes about {scan.estimated_duration_seconds} seconds.</span>}
    </div>
  );
}

function DetectorTable({ results }: { results: Record<string, DetectorResult> }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Results per detector</caption>
        <thead>
          <tr>
            <th scope="col">Detector</th>
            <th scope="col">Status</th>
            <th scope="col">Risk</th>
            {SEVERITIES.map((severity) => (
              <th scope="col" key={severity}>
                {severity}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Object.entries(results).map(([name, result]) => (
            <tr key={name}>
              <th scope="row">{detectorLabel(name)}</th>
              <td>
                <StatusBadge status={result.status} />
                {result.error && <div className="field-error">{result.error}</div>}
              </td>
              <td>
                <Risk score={result.risk_score} level={result.risk_level} />
              </td>
              {SEVERITIES.map((severity) => (
                <td key={severity}>{result.summary[severity]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The scan's state: progress and `Cancel scan` while it runs; risk and per-detector results after. */
export function ScanSummary({ scan }: { scan: Scan }) {
  const cancel = useCancelScan(scan.scan_id);
  const active = isScanActive(scan.status);
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading">Summary</h2>
      <dl className="facts">
        <dt>Status</dt>
        <dd aria-live="polite">
          <StatusBadge status={scan.status} />
        </dd>
        <dt>Risk</dt>
        <dd>
          <Risk score={scan.risk_score} level={scan.risk_level} />
        </dd>
        <dt>Target</dt>
        <dd>{scan.target}</dd>
        <dt>Started</dt>
        <dd>
          <RelativeTime value={scan.created_at} />
        </dd>
        {scan.completed_at && (
          <>
            <dt>Finished</dt>
            <dd>
              <RelativeTime value={scan.completed_at} />
              {scan.duration_seconds !== undefined && `, after ${scan.duration_seconds} s`}
            </dd>
          </>
        )}
      </dl>
      {active && <Progress scan={scan} />}
      {active && (
        <IfAllowed role="operator">
          <ConfirmDialog trigger={<button type="button" className="button danger">Cancel scan</button>} title="Cancel this scan?" description="The detectors stop; findings found so far are not kept as a result." confirmLabel="Cancel scan" danger onConfirm={() => cancel.mutateAsync()} />
        </IfAllowed>
      )}
      {!Array.isArray(scan.detectors) && <DetectorTable results={scan.detectors} />}
      {scan.crawl_problems && <CrawlProblems problems={scan.crawl_problems} />}
    </section>
  );
}
