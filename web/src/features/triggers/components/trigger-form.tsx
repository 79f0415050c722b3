import { useId, useMemo, useState, type FormEvent } from 'react';
import { fieldErrors } from '../../../api/problem-error';
import { Field, FieldErrorCount, errorUnder } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { browserTimeZone, knownTimeZones } from '../../../lib/zoned-time';
import { useAgents, useManifest } from '../../agents/api/agents';
import { useIntegrationChoices, type NewTrigger, type TriggerKind } from '../api/triggers';
import { ChatSourceFields, type ChatDraft } from './chat-source-fields';
import { MailSourceFields, type MailDraft } from './mail-source-fields';
import { useInboundMail } from '../api/inbound-mail';

interface MappingRow {
  key: number;
  field: string;
  pointer: string;
}

type Source = NewTrigger['source'];

/** The kinds the form offers, each with what starts it. */
const KIND_CHOICES: { kind: TriggerKind; label: string }[] = [
  { kind: 'schedule', label: 'Schedule: at times a cron sets' },
  { kind: 'event', label: 'Event: whenever an agent emits an artifact of a type' },
  { kind: 'mail', label: 'Mail: for each mail sent to the trigger’s own address' },
  { kind: 'chat', label: 'Chat: for each matching message in a Slack channel' },
];

/** What a mapping's JSON Pointers point into, for each kind that maps (schedules have nothing to map from). */
const MAPPING_CONTEXT: Record<Exclude<TriggerKind, 'schedule'>, { context: string; example: string; placeholder: string }> = {
  event: { context: '{"artifact": {artifact_id, type, data}, "task": {...}}', example: 'leads → /artifact/data/leads', placeholder: '/artifact/data/…' },
  mail: { context: '{"mail": {from, to, subject, text, date, message_id, attachments}}', example: 'request → /mail/text', placeholder: '/mail/…' },
  chat: { context: '{"chat": {user, channel, text, ts}}', example: 'request → /chat/text', placeholder: '/chat/…' },
};

/** A mail source from the form's fields: empty patterns and no integration are left out. */
function mailSource(draft: MailDraft): Source {
  const match = { ...(draft.from.trim() ? { from: draft.from.trim() } : {}), ...(draft.subject.trim() ? { subject: draft.subject.trim() } : {}) };
  return { type: 'mail', ...(draft.integrationId ? { integration_id: draft.integrationId } : {}), ...(Object.keys(match).length ? { match } : {}) };
}

interface TriggerFormProps {
  busy: boolean;
  error: unknown;
  onSubmit: (body: NewTrigger) => void;
}

/**
 * A new trigger: its name, what starts it (a cron in a time zone, an artifact type, mail to its own
 * address, or messages in a Slack channel), and the task it starts (agent, task type, input as
 * JSON, and for all but schedules the input mapping).
 */
export function TriggerForm({ busy, error, onSubmit }: TriggerFormProps) {
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const agents = useAgents();
  const deployed = agents.data ?? [];
  const zones = useMemo(knownTimeZones, []);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<TriggerKind>('schedule');
  const [cron, setCron] = useState('0 8 * * 1');
  const [timezone, setTimezone] = useState(browserTimeZone);
  const [overlap, setOverlap] = useState<'skip' | 'allow'>('skip');
  const [artifactType, setArtifactType] = useState('');
  const [sourceAgent, setSourceAgent] = useState('');
  const [mail, setMail] = useState<MailDraft>({ from: '', subject: '', integrationId: '' });
  const [chat, setChat] = useState<ChatDraft>({ integrationId: '', channel: '', pattern: '' });
  const [agentSlug, setAgentSlug] = useState('');
  const [taskType, setTaskType] = useState('');
  const [input, setInput] = useState('{}');
  const [rows, setRows] = useState<MappingRow[]>([]);
  const [nextKey, setNextKey] = useState(1);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});

  const agent = deployed.find((item) => item.agent_slug === agentSlug) ?? deployed[0];
  const manifest = useManifest(agent?.agent_id ?? '', Boolean(agent));
  const taskTypes = manifest.data?.task_types ?? [];
  const chosenType = taskTypes.some((item) => item.task_type === taskType) ? taskType : (taskTypes[0]?.task_type ?? '');
  const slack = useIntegrationChoices('slack', kind === 'chat');
  const slackIntegration = slack.data?.find((item) => item.integration_id === chat.integrationId) ?? slack.data?.[0];
  // Mail triggers need a deployment that receives mail (config.json's inboundMail).
  const inboundMail = useInboundMail();
  const mailUnavailable = kind === 'mail' && inboundMail.data === false;
  // A chat trigger cannot be made without a slack integration: the fields say so and link to connect one.
  const blocked = !agent || (kind === 'chat' && !slackIntegration) || mailUnavailable;
  const mapping = kind === 'schedule' ? undefined : MAPPING_CONTEXT[kind];

  const apiErrors = fieldErrors(error, 'body');
  const errors = { ...apiErrors, ...localErrors };
  const at = (path: string) => errorUnder(errors, path);
  const placed = ['name', 'source', 'task'].some((prefix) => at(prefix));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    let parsed: Record<string, unknown> = {};
    try {
      const value: unknown = JSON.parse(input.trim() || '{}');
      if (value === null || typeof value !== 'object' || Array.isArray(value)) problems['task.input'] = 'Enter a JSON object, e.g. {"scope": "full"}.';
      else parsed = value as Record<string, unknown>;
    } catch (failure) {
      problems['task.input'] = `Not valid JSON: ${failure instanceof Error ? failure.message : String(failure)}`;
    }
    const inputMapping: Record<string, string> = {};
    for (const row of rows) if (row.field.trim()) inputMapping[row.field.trim()] = row.pointer.trim();
    setLocalErrors(problems);
    if (Object.keys(problems).length || !agent) return;
    const sources: Record<TriggerKind, () => Source> = {
      schedule: () => ({ type: 'schedule', cron: cron.trim(), timezone: timezone.trim(), overlap }),
      event: () => ({ type: 'event', artifact_type: artifactType.trim(), ...(sourceAgent ? { agent: sourceAgent } : {}) }),
      mail: () => mailSource(mail),
      chat: () => ({ type: 'chat', integration_id: slackIntegration?.integration_id ?? '', channel: chat.channel.trim(), pattern: chat.pattern.trim() }),
    };
    onSubmit({
      name: name.trim(),
      source: sources[kind](),
      task: { agent: agent.agent_slug, task_type: chosenType, input: parsed, ...(mapping && Object.keys(inputMapping).length ? { input_mapping: inputMapping } : {}) },
    });
  };

  const fieldCount = Object.keys(errors).length;
  return (
    <form onSubmit={submit} noValidate aria-label="New trigger">
      {error !== undefined && !placed && <ProblemMessage error={error} />}
      <Field id={id('name')} label="Name" error={at('name')}>
        {(props) => <input {...props} required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />}
      </Field>
      <fieldset>
        <legend>Kind</legend>
        {KIND_CHOICES.map((choice) => (
          <label key={choice.kind} className="check">
            <input type="radio" name={id('kind')} value={choice.kind} checked={kind === choice.kind} onChange={() => setKind(choice.kind)} />
            {choice.label}
          </label>
        ))}
      </fieldset>
      {kind === 'schedule' && (
        <>
          <Field id={id('cron')} label="Cron" hint="Five fields: minute hour day-of-month month day-of-week, e.g. 0 8 * * 1 for Mondays at 08:00." error={at('source.cron')}>
            {(props) => <input {...props} required value={cron} spellCheck={false} onChange={(event) => setCron(event.target.value)} />}
          </Field>
          <Field id={id('timezone')} label="Time zone" hint="An IANA zone such as Europe/Berlin; the cron is read as wall-clock time there." error={at('source.timezone')}>
            {(props) => (
              <>
                <input {...props} required list={id('zones')} value={timezone} spellCheck={false} autoComplete="off" onChange={(event) => setTimezone(event.target.value)} />
                <datalist id={id('zones')}>
                  {zones.map((zone) => (
                    <option key={zone} value={zone} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <Field id={id('overlap')} label="Overlap" error={at('source.overlap')}>
            {(props) => (
              <select {...props} value={overlap} onChange={(event) => setOverlap(event.target.value as 'skip' | 'allow')}>
                <option value="skip">Skip a run while the last task has not ended</option>
                <option value="allow">Allow: start a task at every run</option>
              </select>
            )}
          </Field>
        </>
      )}
      {kind === 'event' && (
        <>
          <Field id={id('artifact-type')} label="Artifact type" hint="e.g. sales.lead_list" error={at('source.artifact_type')}>
            {(props) => <input {...props} required value={artifactType} spellCheck={false} onChange={(event) => setArtifactType(event.target.value)} />}
          </Field>
          <Field id={id('source-agent')} label="Emitted by agent (optional)" error={at('source.agent')}>
            {(props) => (
              <select {...props} value={sourceAgent} onChange={(event) => setSourceAgent(event.target.value)}>
                <option value="">Any agent</option>
                {deployed.map((item) => (
                  <option key={item.agent_id} value={item.agent_slug}>
                    {item.agent_slug}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      )}
      {kind === 'mail' && <MailSourceFields id={id} value={mail} onChange={setMail} errors={errors} unavailable={mailUnavailable} />}
      {kind === 'chat' && <ChatSourceFields id={id} value={chat} onChange={setChat} errors={errors} integrations={slack.data} loadError={slack.error} chosen={slackIntegration} />}
      <fieldset>
        <legend>Task it starts</legend>
        <Field id={id('task-agent')} label="Task agent" hint={agents.isSuccess && deployed.length === 0 ? 'No agent is deployed yet: deploy one on the Agents page first.' : undefined} error={at('task.agent')}>
          {(props) => (
            <select {...props} value={agent?.agent_slug ?? ''} onChange={(event) => (setAgentSlug(event.target.value), setTaskType(''))}>
              {deployed.map((item) => (
                <option key={item.agent_id} value={item.agent_slug}>
                  {item.name} ({item.agent_slug})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id={id('task-type')} label="Task type" hint={manifest.isPending && agent ? 'Loading the agent’s task types…' : undefined} error={at('task.task_type')}>
          {(props) => (
            <select {...props} value={chosenType} onChange={(event) => setTaskType(event.target.value)}>
              {taskTypes.map((item) => (
                <option key={item.task_type} value={item.task_type}>
                  {item.task_type}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id={id('input')} label="Input (JSON)" hint="A JSON object checked against the task type's input schema." error={at('task.input_mapping') ? undefined : at('task.input')}>
          {(props) => <textarea {...props} rows={4} spellCheck={false} value={input} onChange={(event) => setInput(event.target.value)} />}
        </Field>
        {mapping && (
          <fieldset aria-describedby={`${id('mapping')}-hint ${id('mapping')}-error`}>
            <legend>Input mapping</legend>
            <p id={`${id('mapping')}-hint`} className="field-hint">
              Each input field is set from a JSON Pointer into {mapping.context}, e.g. {mapping.example}.
            </p>
            {rows.map((row, index) => (
              <div key={row.key} className="mapping-row">
                <div className="field">
                  <label htmlFor={id(`map-field-${row.key}`)}>Input field {index + 1}</label>
                  <input id={id(`map-field-${row.key}`)} value={row.field} spellCheck={false} onChange={(event) => setRows(rows.map((item) => (item.key === row.key ? { ...item, field: event.target.value } : item)))} />
                </div>
                <div className="field">
                  <label htmlFor={id(`map-pointer-${row.key}`)}>JSON Pointer {index + 1}</label>
                  <input id={id(`map-pointer-${row.key}`)} value={row.pointer} spellCheck={false} placeholder={mapping.placeholder} onChange={(event) => setRows(rows.map((item) => (item.key === row.key ? { ...item, pointer: event.target.value } : item)))} />
                </div>
                <button type="button" className="button small ghost" onClick={() => setRows(rows.filter((item) => item.key !== row.key))}>
                  Remove mapping {index + 1}
                </button>
              </div>
            ))}
            <button type="button" className="button small" onClick={() => (setRows([...rows, { key: nextKey, field: '', pointer: '' }]), setNextKey(nextKey + 1))}>
              Add mapping
            </button>
            <span id={`${id('mapping')}-error`} className="field-error">
              {at('task.input_mapping')}
            </span>
          </fieldset>
        )}
      </fieldset>
      <FieldErrorCount count={fieldCount} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={busy || blocked}>
          {busy ? 'Creating…' : 'Create trigger'}
        </button>
      </div>
    </form>
  );
}
