import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Session } from '../api/sessions';

/** Sessions as rows: title (or "Untitled"), agent, status, last activity, how many tasks. */
export function SessionsTable({ sessions }: { sessions: Session[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Sessions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Agent</th>
            <th scope="col">Status</th>
            <th scope="col">Last activity</th>
            <th scope="col">Tasks</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.session_id}>
              <td className="wrap">
                <Link to={`/sessions/${session.session_id}`}>{session.title || `Untitled session ${session.session_id}`}</Link>
              </td>
              <td>{session.agent}</td>
              <td>
                <StatusBadge status={session.status} />
              </td>
              <td>
                <RelativeTime value={session.last_activity_at} />
              </td>
              <td>{session.task_count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
