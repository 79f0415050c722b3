import { Link, useParams } from 'react-router';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { StatusBadge } from '../../components/status-badge';
import { useRuleHistory } from './api/use-findings';

/** One rule across a project's scans, newest first: open with how many findings, or fixed. */
export function RuleHistoryPage() {
  const { projectId = '', ruleId = '' } = useParams();
  const history = useRuleHistory(projectId, ruleId);
  return (
    <Page title={`History of ${ruleId}`} intro="How many findings of this rule each scan of the project saw.">
      <p>
        <Link to={`/scans/projects/${projectId}`}>Its project</Link>
      </p>
      <QueryState query={history} loading="Loading the rule's history…" isEmpty={(item) => item.history.length === 0} empty={<p>No scan of this project has seen this rule yet.</p>}>
        {(item) => (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Scan</th>
                  <th scope="col">Status</th>
                  <th scope="col">Findings</th>
                </tr>
              </thead>
              <tbody>
                {item.history.map((entry) => (
                  <tr key={entry.scan_id}>
                    <td>
                      <Link to={`/scans/${entry.scan_id}`}>
                        Scan of <RelativeTime value={entry.scanned_at} />
                      </Link>
                    </td>
                    <td>
                      <StatusBadge status={entry.status} />
                    </td>
                    <td>{entry.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
    </Page>
  );
}
