import { useSearchParams } from 'react-router';
import { LoadMore } from '../../../components/load-more';
import { QueryState } from '../../../components/query-state';
import { listState } from '../api/list-state';
import { useScanFindings, type Detector } from '../api/use-findings';
import { DETECTORS, detectorLabel, filterFindings, FINDING_STATUSES, SEVERITIES, severityQuery } from '../lib/finding-filters';
import { FindingRow } from './finding-row';

/** The filters live in the address, so a filtered view can be linked and survives a reload. */
function useFindingFilters() {
  const [params, setParams] = useSearchParams();
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const detector = DETECTORS.find((name) => name === params.get('detector'));
  const severities = (params.get('severity') ?? '').split(',').filter(Boolean);
  return { detector, severities, status: params.get('status') ?? '', text: params.get('q') ?? '', set };
}

/** The scan's findings: filters by severity, detector, status and text, then the table. */
export function FindingsSection({ scanId, projectId }: { scanId: string; projectId: string }) {
  const filters = useFindingFilters();
  const findings = useScanFindings(scanId, { detector: filters.detector as Detector | undefined, severity: severityQuery(filters.severities) });
  const shown = filterFindings(findings.items, { status: filters.status, text: filters.text });
  const total = (findings.data?.pages[0] as { total?: number } | undefined)?.total;
  const toggleSeverity = (severity: string, on: boolean) => filters.set('severity', (on ? [...filters.severities, severity] : filters.severities.filter((item) => item !== severity)).join(','));
  return (
    <section aria-labelledby="findings-heading">
      <h2 id="findings-heading">Findings</h2>
      <div className="filters">
        <fieldset>
          <legend>Severity</legend>
          {SEVERITIES.map((severity) => (
            <label className="check" key={severity}>
              <input type="checkbox" checked={filters.severities.includes(severity)} onChange={(event) => toggleSeverity(severity, event.target.checked)} /> {severity}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="finding-detector">Detector</label>
          <select id="finding-detector" value={filters.detector ?? ''} onChange={(event) => filters.set('detector', event.target.value)}>
            <option value="">Any detector</option>
            {DETECTORS.map((detector) => (
              <option key={detector} value={detector}>
                {detectorLabel(detector)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="finding-status">Status</label>
          <select id="finding-status" value={filters.status} onChange={(event) => filters.set('status', event.target.value)}>
            <option value="">Any status</option>
            {FINDING_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="finding-text">Search findings</label>
          <input id="finding-text" type="search" value={filters.text} placeholder="Title, rule or URL" onChange={(event) => filters.set('q', event.target.value)} />
        </div>
      </div>
      <p role="status" className="field-hint">
        {total !== undefined && `Showing ${shown.length} of ${findings.items.length} loaded findings (${total} match the severity and detector filters).`}
      </p>
      <QueryState query={listState(findings, shown)} loading="Loading findings…" isEmpty={(items) => items.length === 0} empty={<p>{findings.items.length === 0 ? 'No findings for these filters. A scan that is still running adds them when it ends.' : 'No loaded finding matches the status or search. Clear them, or load more.'}</p>}>
        {(items) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Findings, most severe first</caption>
              <thead>
                <tr>
                  <th scope="col">Severity</th>
                  <th scope="col">Finding</th>
                  <th scope="col">Detector</th>
                  <th scope="col">Where</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((finding) => (
                  <FindingRow key={finding.id} finding={finding} projectId={projectId} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <LoadMore query={findings} />
    </section>
  );
}
