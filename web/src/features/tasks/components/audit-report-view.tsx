import { StatusBadge } from '../../../components/status-badge';

interface Recommendation {
  gap?: string;
  severity?: string;
  evidence_missing?: string[];
  remediation?: string;
}

interface AuditReport {
  eu_ai_act_score?: number;
  gaps_found?: number;
  critical?: number;
  domains?: Record<string, number>;
  recommendations?: Recommendation[];
}

const words = (text: string) => text.replace(/_/g, ' ');

/** The AI-readiness audit report: its scores and its recommendations as tables. */
export function AuditReportView({ report }: { report: AuditReport }) {
  const domains = Object.entries(report.domains ?? {});
  const recommendations = report.recommendations ?? [];
  return (
    <>
      <dl className="facts">
        <dt>EU AI Act score</dt>
        <dd>{report.eu_ai_act_score ?? '—'} / 100</dd>
        <dt>Gaps found</dt>
        <dd>{report.gaps_found ?? recommendations.length}</dd>
        <dt>Critical gaps</dt>
        <dd>{report.critical ?? 0}</dd>
      </dl>
      {domains.length > 0 && (
        <>
          <h4>Scores by domain</h4>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Scores by domain</caption>
              <thead>
                <tr>
                  <th scope="col">Domain</th>
                  <th scope="col">Score</th>
                </tr>
              </thead>
              <tbody>
                {domains.map(([domain, score]) => (
                  <tr key={domain}>
                    <th scope="row">{words(domain)}</th>
                    <td>{score} / 100</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <h4>Recommendations</h4>
      {recommendations.length === 0 ? (
        <p>No gaps: nothing to recommend.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Recommendations, most severe first</caption>
            <thead>
              <tr>
                <th scope="col">Severity</th>
                <th scope="col">Gap</th>
                <th scope="col">Missing evidence</th>
                <th scope="col">What to do</th>
              </tr>
            </thead>
            <tbody>
              {recommendations.map((item, index) => (
                <tr key={`${item.gap}-${index}`}>
                  <td>{item.severity && <StatusBadge status={item.severity} />}</td>
                  <td>{item.gap}</td>
                  <td>{(item.evidence_missing ?? []).map(words).join(', ')}</td>
                  <td>{item.remediation}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
