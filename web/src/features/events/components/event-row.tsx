import { Link } from 'react-router';
import { CopyableId } from '../../../components/copyable-id';
import { JsonView } from '../../../components/json-view';
import { Principal } from '../../../components/principal';
import { RelativeTime } from '../../../components/relative-time';
import { eventPrincipal, eventSubjects } from '../../../lib/event-filters';
import type { ServiceEvent } from '../api/events';

/** The records an event is about, as links: task ↔ approval ↔ artifact ↔ scan. */
function Subjects({ event }: { event: ServiceEvent }) {
  const { taskId, approvalId, artifactId, scanId, keyId, userId } = eventSubjects(event);
  const links = [
    taskId && <Link key="task" to={`/tasks/${taskId}`}>Task {taskId}</Link>,
    approvalId && <Link key="approval" to={`/approvals/${approvalId}`}>Approval {approvalId}</Link>,
    artifactId && taskId && <Link key="artifact" to={`/tasks/${taskId}#artifact-${artifactId}`}>Artifact {artifactId}</Link>,
    scanId && <Link key="scan" to={`/scans/${scanId}`}>Scan {scanId}</Link>,
    keyId && <Link key="key" to="/settings?tab=api-keys">API key {keyId}</Link>,
    userId && <Link key="member" to="/settings?tab=members">Member {userId}</Link>,
  ].filter(Boolean);
  if (!links.length) return <span className="muted">—</span>;
  return <ul className="plain-list">{links.map((link, index) => <li key={index}>{link}</li>)}</ul>;
}

/** One event of the log: when, what, what it is about, who did it (administrative events), its data. */
export function EventRow({ event }: { event: ServiceEvent }) {
  const principal = eventPrincipal(event);
  return (
    <tr>
      <td>
        <RelativeTime value={event.created_at} />
      </td>
      <td>
        <code>{event.type}</code>
      </td>
      <td>
        <Subjects event={event} />
      </td>
      <td>
        {principal ? <Principal principal={principal} /> : <span className="muted">—</span>}
      </td>
      <td>
        <details>
          <summary>
            Data <span className="visually-hidden">of event {event.event_id}</span>
          </summary>
          <CopyableId value={event.event_id} label="event id" />
          <JsonView value={event.data} label={`Data of event ${event.event_id}`} />
        </details>
      </td>
    </tr>
  );
}
