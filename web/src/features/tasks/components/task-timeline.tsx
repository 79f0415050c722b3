import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import type { ServiceEvent } from '../api/task-events';

/** A line of words for an event: its message, status or progress, when it has one. */
function summary(event: ServiceEvent): string {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof data.message === 'string') parts.push(data.message);
  if (typeof data.progress === 'number') parts.push(`${Math.round(data.progress * 100)}%`);
  if (typeof data.status === 'string' && !parts.length) parts.push(data.status.replace(/_/g, ' '));
  return parts.join(' · ');
}

function links(event: ServiceEvent) {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const approvalId = (event as { approval_id?: string }).approval_id ?? (typeof data.approval_id === 'string' ? data.approval_id : undefined);
  const artifactId = typeof data.artifact_id === 'string' ? data.artifact_id : undefined;
  return (
    <>
      {approvalId && (
        <>
          {' '}
          <Link to={`/approvals/${approvalId}`}>Approval</Link>
        </>
      )}
      {artifactId && (
        <>
          {' '}
          <a href={`#artifact-${artifactId}`}>Artifact</a>
        </>
      )}
    </>
  );
}

/** The task's events in order, as they happened. */
export function TaskTimeline({ events }: { events: ServiceEvent[] }) {
  if (!events.length) return <p className="empty">No events yet; they appear here as the task runs.</p>;
  return (
    <ol className="timeline" aria-label="Task events">
      {events.map((event) => (
        <li key={event.event_id}>
          <strong>{event.type}</strong> <RelativeTime value={event.created_at} />
          {summary(event) && <div>{summary(event)}</div>}
          {links(event)}
        </li>
      ))}
    </ol>
  );
}
