import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import { TRIGGER_KIND_LABELS, type Trigger } from '../api/triggers';
import { TriggerSource, TriggerState } from './trigger-summary';

/** When the triggers that are not schedules run, for the `Next run` column. */
const RUNS_ON = { event: 'on each artifact', mail: 'on each mail', chat: 'on each message' } as const;

/** The tenant's triggers: what starts them, what they start, whether they are enabled. */
export function TriggersTable({ triggers }: { triggers: Trigger[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Triggers, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">When</th>
            <th scope="col">Next run</th>
            <th scope="col">State</th>
            <th scope="col">Starts</th>
          </tr>
        </thead>
        <tbody>
          {triggers.map((trigger) => (
            <tr key={trigger.trigger_id}>
              <td className="wrap">
                <Link to={`/triggers/${trigger.trigger_id}`}>{trigger.name}</Link>
              </td>
              <td>{TRIGGER_KIND_LABELS[trigger.source.type]}</td>
              <td className="wrap">
                <TriggerSource trigger={trigger} />
              </td>
              <td>{trigger.source.type === 'schedule' ? <RelativeTime value={trigger.next_runs?.[0]} /> : <span className="muted">{RUNS_ON[trigger.source.type]}</span>}</td>
              <td>
                <TriggerState trigger={trigger} />
              </td>
              <td className="wrap">
                <code>{trigger.task.task_type}</code> <span className="muted">by {trigger.task.agent}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
