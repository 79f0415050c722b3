import { Link } from 'react-router';
import { CopyableId } from '../../../components/copyable-id';
import { JsonView } from '../../../components/json-view';
import { RelativeTime } from '../../../components/relative-time';
import { useIntegration } from '../../integrations/api/integrations';
import { chatOf, eventOf, mailOf, scheduleOf, TRIGGER_KIND_LABELS, type Trigger } from '../api/triggers';
import { TriggerState } from './trigger-summary';

/** A link to an integration's page, by its name once known. */
function IntegrationLink({ integrationId }: { integrationId: string }) {
  const integration = useIntegration(integrationId);
  return <Link to={`/integrations/${integrationId}`}>{integration.data?.name ?? integrationId}</Link>;
}

/** A regular expression as the trigger keeps it, or what its absence means. */
function Pattern({ value, absent }: { value: string | undefined; absent: string }) {
  return value ? <code>{value}</code> : <span className="muted">{absent}</span>;
}

/** A trigger's settings: what starts it and the task it starts. */
export function TriggerFacts({ trigger }: { trigger: Trigger }) {
  const schedule = scheduleOf(trigger);
  const event = eventOf(trigger);
  const mail = mailOf(trigger);
  const chat = chatOf(trigger);
  const mapping = Object.entries(trigger.task.input_mapping ?? {});
  return (
    <dl className="facts card">
      <dt>Trigger</dt>
      <dd>
        <CopyableId value={trigger.trigger_id} label="trigger id" />
      </dd>
      <dt>State</dt>
      <dd>
        <TriggerState trigger={trigger} />
      </dd>
      <dt>Kind</dt>
      <dd>{TRIGGER_KIND_LABELS[trigger.source.type]}</dd>
      {schedule && (
        <>
          <dt>Cron</dt>
          <dd>
            <code>{schedule.cron}</code>
          </dd>
          <dt>Time zone</dt>
          <dd>{schedule.timezone}</dd>
          <dt>Overlap</dt>
          <dd>{schedule.overlap === 'allow' ? 'allow: a task at every run' : 'skip: no new task while the last has not ended'}</dd>
          {schedule.start_at && (
            <>
              <dt>From</dt>
              <dd>
                <RelativeTime value={schedule.start_at} />
              </dd>
            </>
          )}
          {schedule.end_at && (
            <>
              <dt>Until</dt>
              <dd>
                <RelativeTime value={schedule.end_at} />
              </dd>
            </>
          )}
        </>
      )}
      {event && (
        <>
          <dt>Artifact type</dt>
          <dd>
            <code>{event.artifact_type}</code>
          </dd>
          <dt>Emitted by</dt>
          <dd>{event.agent ?? 'any agent'}</dd>
        </>
      )}
      {mail && (
        <>
          <dt>Address</dt>
          <dd>
            <CopyableId value={mail.address} label="inbound address" />
          </dd>
          <dt>From pattern</dt>
          <dd>
            <Pattern value={mail.match?.from} absent="any sender" />
          </dd>
          <dt>Subject pattern</dt>
          <dd>
            <Pattern value={mail.match?.subject} absent="any subject" />
          </dd>
          <dt>Email integration</dt>
          <dd>{mail.integration_id ? <IntegrationLink integrationId={mail.integration_id} /> : <span className="muted">none</span>}</dd>
          <dt>Runs</dt>
          <dd>For each mail sent to the address whose sender and subject match (case-insensitive); automatic mail starts nothing. Not fired by hand.</dd>
        </>
      )}
      {chat && (
        <>
          <dt>Slack integration</dt>
          <dd>
            <IntegrationLink integrationId={chat.integration_id} />
          </dd>
          <dt>Channel</dt>
          <dd>
            <code>{chat.channel}</code>
          </dd>
          <dt>Pattern</dt>
          <dd>
            <code>{chat.pattern}</code>
          </dd>
          <dt>Runs</dt>
          <dd>For each message a person writes in the channel that matches (case-insensitive); the task's outcome is posted in its thread. Not fired by hand.</dd>
        </>
      )}
      <dt>Task agent</dt>
      <dd>{trigger.task.agent}</dd>
      <dt>Task type</dt>
      <dd>
        <code>{trigger.task.task_type}</code>
      </dd>
      <dt>Priority</dt>
      <dd>{trigger.task.priority}</dd>
      <dt>Input</dt>
      <dd>
        <JsonView value={trigger.task.input} label="Task input" />
      </dd>
      {mapping.length > 0 && (
        <>
          <dt>Input mapping</dt>
          <dd>
            <ul className="plain-list">
              {mapping.map(([field, pointer]) => (
                <li key={field}>
                  <code>{field}</code> ← <code>{pointer}</code>
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      <dt>Last scheduled for</dt>
      <dd>
        <RelativeTime value={trigger.last_scheduled_for} />
      </dd>
      <dt>Last task</dt>
      <dd>{trigger.last_task_id ? <Link to={`/tasks/${trigger.last_task_id}`}>{trigger.last_task_id}</Link> : '—'}</dd>
      <dt>Created</dt>
      <dd>
        <RelativeTime value={trigger.created_at} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <RelativeTime value={trigger.updated_at} />
      </dd>
    </dl>
  );
}
