import { eventOf, scheduleOf, type Trigger } from '../api/triggers';

/** What starts a trigger, in one line: `0 8 * * 1 (Europe/Berlin)` or `on sales.lead_list from sales`. */
export function TriggerSource({ trigger }: { trigger: Trigger }) {
  const schedule = scheduleOf(trigger);
  const event = eventOf(trigger);
  if (schedule)
    return (
      <>
        <code>{schedule.cron}</code> <span className="muted">({schedule.timezone})</span>
      </>
    );
  if (event)
    return (
      <>
        on <code>{event.artifact_type}</code>
        {event.agent && <span className="muted"> from {event.agent}</span>}
      </>
    );
  return <code>{trigger.source.type}</code>;
}

/** Enabled or paused, as a badge whose word says it. */
export function TriggerState({ trigger }: { trigger: Trigger }) {
  return <span className={`badge ${trigger.enabled ? 'badge-ok' : 'badge-plain'}`}>{trigger.enabled ? 'enabled' : 'paused'}</span>;
}
