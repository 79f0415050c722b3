import { Link } from 'react-router';
import { LoadMore } from '../../../components/load-more';
import { QueryState } from '../../../components/query-state';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import { useTriggerRuns, type Trigger } from '../api/triggers';

/** What makes a run of each kind, for the empty log. */
const NO_RUNS_YET: Record<Trigger['source']['type'], string> = {
  schedule: 'No runs yet. They appear here at each scheduled time, or with “Fire now”.',
  event: 'No runs yet. They appear here for each matching artifact, or with “Fire now”.',
  mail: 'No runs yet. They appear here for each mail sent to its address.',
  chat: 'No runs yet. They appear here for each matching message in its channel.',
};

/** A trigger's runs log, newest first: when, for which time, what came of it, its task. */
export function RunsSection({ trigger }: { trigger: Trigger }) {
  const runs = useTriggerRuns(trigger.trigger_id);
  return (
    <section aria-labelledby="runs-heading">
      <div className="page-head">
        <h2 id="runs-heading">Runs</h2>
        <div className="actions">
          <button type="button" className="button ghost" onClick={() => void runs.refresh()} disabled={runs.isFetching}>
            {runs.isFetching ? 'Refreshing…' : 'Refresh runs'}
          </button>
        </div>
      </div>
      <QueryState query={runs} loading="Loading runs…" isEmpty={() => runs.items.length === 0} empty={<p>{NO_RUNS_YET[trigger.source.type]}</p>}>
        {() => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Runs of this trigger, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Scheduled for</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Task</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {runs.items.map((run) => (
                  <tr key={run.run_id}>
                    <td>
                      <RelativeTime value={run.at} />
                    </td>
                    <td>{run.scheduled_for ? <RelativeTime value={run.scheduled_for} /> : '—'}</td>
                    <td>
                      <StatusBadge status={run.outcome} />
                    </td>
                    <td>{run.task_id ? <Link to={`/tasks/${run.task_id}`}>Task {run.task_id}</Link> : '—'}</td>
                    <td className="wrap">{run.reason ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <LoadMore query={runs} />
    </section>
  );
}
