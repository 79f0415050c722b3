import { Link } from 'react-router';
import { useSession } from '../../sessions/api/sessions';
import { eventOf, scheduleOf, useTrigger } from '../../triggers/api/triggers';
import type { Task } from '../api/tasks';

const KINDS: Record<string, string> = { api: 'an API key', dashboard: 'a person in the dashboard', mail: 'mail', chat: 'chat' };

/** "Started by trigger X (schedule, 0 8 * * 1 Europe/Berlin)", linking to the trigger. */
function TriggerOrigin({ triggerId, manual }: { triggerId: string; manual: boolean }) {
  const trigger = useTrigger(triggerId);
  if (trigger.error) return <>a trigger that no longer exists ({triggerId})</>;
  if (!trigger.data) return <Link to={`/triggers/${triggerId}`}>trigger {triggerId}</Link>;
  const schedule = scheduleOf(trigger.data);
  const event = eventOf(trigger.data);
  const detail = schedule ? `schedule, ${schedule.cron} ${schedule.timezone}` : event ? `event, ${event.artifact_type}` : trigger.data.source.type;
  return (
    <>
      trigger <Link to={`/triggers/${triggerId}`}>{trigger.data.name}</Link> ({detail}
      {manual ? ', fired by hand' : ''})
    </>
  );
}

function SessionOrigin({ sessionId }: { sessionId: string }) {
  const session = useSession(sessionId);
  return <Link to={`/sessions/${sessionId}`}>{session.data?.title || `session ${sessionId}`}</Link>;
}

/** Where a task came from: a trigger or a session (linked), else who started it. */
export function TaskOrigin({ task }: { task: Task }) {
  const trigger = task.trigger;
  return (
    <>
      {trigger?.trigger_id ? <TriggerOrigin triggerId={trigger.trigger_id} manual={trigger.manual === true} /> : <>{KINDS[trigger?.type ?? ''] ?? trigger?.type ?? 'unknown'}</>}
      {task.session_id && (
        <>
          {', in '}
          <SessionOrigin sessionId={task.session_id} />
        </>
      )}
    </>
  );
}
