import { chatOf, eventOf, mailOf, scheduleOf, type Trigger } from '../api/triggers';

/**
 * What starts a trigger, in one line: `0 8 * * 1 (Europe/Berlin)`, `on sales.lead_list from sales`,
 * `mail to t-…@… subject ^audit` or `chat in C0123ABCD matching ^audit`.
 */
export function TriggerSource({ trigger }: { trigger: Trigger }) {
  const schedule = scheduleOf(trigger);
  const event = eventOf(trigger);
  const mail = mailOf(trigger);
  const chat = chatOf(trigger);
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
  if (mail)
    return (
      <>
        mail to <code>{mail.address}</code>
        {mail.match?.from && (
          <span className="muted">
            {' '}
            from <code>{mail.match.from}</code>
          </span>
        )}
        {mail.match?.subject && (
          <span className="muted">
            {' '}
            subject <code>{mail.match.subject}</code>
          </span>
        )}
      </>
    );
  if (chat)
    return (
      <>
        chat in <code>{chat.channel}</code> matching <code>{chat.pattern}</code>
      </>
    );
  return <code>{trigger.source.type}</code>;
}

/** Enabled or paused, as a badge whose word says it. */
export function TriggerState({ trigger }: { trigger: Trigger }) {
  return <span className={`badge ${trigger.enabled ? 'badge-ok' : 'badge-plain'}`}>{trigger.enabled ? 'enabled' : 'paused'}</span>;
}
