import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Task } from '../api/tasks';

/** Tasks as rows; each links to its page. */
export function TasksTable({ tasks, caption }: { tasks: Task[]; caption: string }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Status</th>
            <th scope="col">Agent</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => (
            <tr key={task.task_id}>
              <td>
                <Link to={`/tasks/${task.task_id}`}>{task.task_type}</Link>
                <div className="muted">
                  <code>{task.task_id}</code>
                </div>
              </td>
              <td>
                <StatusBadge status={task.status} />
              </td>
              <td>{task.agent}</td>
              <td>
                <RelativeTime value={task.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
