import { Link } from 'react-router';
import { CopyableId } from '../../../components/copyable-id';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Task } from '../api/tasks';
import { TaskOrigin } from './task-origin';

/** What a task is: identifiers, status, times, who started it, and its failure in words. */
export function TaskFacts({ task }: { task: Task }) {
  return (
    <dl className="facts">
      <dt>Status</dt>
      <dd>
        <StatusBadge status={task.status} />
      </dd>
      <dt>Task</dt>
      <dd>
        <CopyableId value={task.task_id} label="task id" />
      </dd>
      <dt>Agent</dt>
      <dd>
        <Link to={`/tasks?agent=${encodeURIComponent(task.agent)}`}>{task.agent}</Link>
      </dd>
      <dt>Priority</dt>
      <dd>{task.priority}</dd>
      {(task.trigger || task.session_id) && (
        <>
          <dt>Started by</dt>
          <dd>
            <TaskOrigin task={task} />
          </dd>
        </>
      )}
      <dt>Created</dt>
      <dd>
        <RelativeTime value={task.created_at} />
      </dd>
      {task.started_at && (
        <>
          <dt>Started</dt>
          <dd>
            <RelativeTime value={task.started_at} />
          </dd>
        </>
      )}
      {task.completed_at && (
        <>
          <dt>Finished</dt>
          <dd>
            <RelativeTime value={task.completed_at} />
          </dd>
        </>
      )}
      {task.error && (
        <>
          <dt>Error</dt>
          <dd>
            <code>{task.error.code}</code>: {task.error.message}
          </dd>
        </>
      )}
    </dl>
  );
}
