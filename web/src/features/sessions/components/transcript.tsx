import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Task } from '../../tasks/api/tasks';
import type { SessionMessage } from '../api/sessions';

/** One message: who said it (you or the agent), what, when, and the task and artifacts it names. */
function Message({ message, agent, task }: { message: SessionMessage; agent: string; task?: Task }) {
  const fromAgent = message.role === 'agent';
  const who = fromAgent ? `Agent ${agent}` : 'User';
  return (
    <li className={`message ${fromAgent ? 'message-agent' : 'message-user'}`} aria-label={fromAgent ? `From agent ${agent}` : 'From the user'}>
      <p className="message-head">
        <strong>{who}</strong> · <RelativeTime value={message.created_at} />
        {fromAgent && message.outcome && (
          <>
            {' '}
            · <StatusBadge status={message.outcome} />
          </>
        )}
      </p>
      <p className="message-body">{message.content}</p>
      {message.task_id && (
        <p className="message-links">
          <Link to={`/tasks/${message.task_id}`}>
            {fromAgent ? 'Task' : 'Started task'} {task?.task_type ?? message.task_id}
          </Link>
          {!fromAgent && task && (
            <>
              {' '}
              <StatusBadge status={task.status} />
            </>
          )}
        </p>
      )}
      {fromAgent && message.artifact_ids && message.artifact_ids.length > 0 && (
        <ul className="plain-list message-links" aria-label="Artifacts">
          {message.artifact_ids.map((artifactId) => (
            <li key={artifactId}>
              <Link to={message.task_id ? `/tasks/${message.task_id}#artifact-${artifactId}` : `/tasks`}>Artifact {artifactId}</Link>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** The transcript, oldest first; user and agent messages look different and say who spoke. */
export function Transcript({ messages, agent, tasks }: { messages: SessionMessage[]; agent: string; tasks: Task[] }) {
  if (messages.length === 0) return <p className="empty">No messages yet. Send the first one below.</p>;
  const byId = new Map(tasks.map((task) => [task.task_id, task]));
  return (
    <ol className="transcript" aria-label="Transcript">
      {messages.map((message) => (
        <Message key={message.message_id} message={message} agent={agent} task={message.task_id ? byId.get(message.task_id) : undefined} />
      ))}
    </ol>
  );
}
