import { useState, type FormEvent } from 'react';
import { fieldErrors } from '../../../api/problem-error';
import { ProblemMessage } from '../../../components/problem-message';
import { ALL_EVENT_TYPES } from '../../../lib/event-filters';
import type { Webhook, WebhookEventType } from '../api/webhooks';

export interface WebhookFormValues {
  url: string;
  events: WebhookEventType[];
  status: Webhook['status'];
}

interface WebhookFormProps {
  initial: WebhookFormValues;
  /** Editing shows the enabled/disabled switch; creating does not. */
  editing?: boolean;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (values: WebhookFormValues) => void;
}

/** A webhook's URL, the event types it receives, and (when editing) whether it is enabled. */
export function WebhookForm({ initial, editing, submitLabel, busy, error, onSubmit }: WebhookFormProps) {
  const [values, setValues] = useState(initial);
  const [noEvents, setNoEvents] = useState(false);
  const errors = fieldErrors(error, 'body');
  const toggle = (type: WebhookEventType, on: boolean) => setValues((current) => ({ ...current, events: on ? [...current.events, type] : current.events.filter((item) => item !== type) }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNoEvents(values.events.length === 0);
    if (values.events.length) onSubmit(values);
  };
  const eventsError = noEvents ? 'Choose at least one event type.' : errors.events;
  return (
    <form onSubmit={submit} noValidate={false}>
      {error !== undefined && !errors.url && !errors.events && <ProblemMessage error={error} />}
      <div className="field">
        <label htmlFor="webhook-url">URL</label>
        <input id="webhook-url" type="url" required value={values.url} placeholder="https://example.com/hooks/gatehouse" aria-invalid={errors.url ? true : undefined} aria-describedby="webhook-url-hint webhook-url-error" onChange={(event) => setValues({ ...values, url: event.target.value })} />
        <span id="webhook-url-hint" className="field-hint">
          https, up to 2048 characters. Gatehouse POSTs each event there, signed with the secret.
        </span>
        <span id="webhook-url-error" className="field-error">
          {errors.url}
        </span>
      </div>
      <fieldset aria-describedby="webhook-events-error">
        <legend>Event types</legend>
        <div className="check-grid">
          {ALL_EVENT_TYPES.map((type) => (
            <label key={type} className="check">
              <input type="checkbox" checked={values.events.includes(type as WebhookEventType)} onChange={(event) => toggle(type as WebhookEventType, event.target.checked)} />
              <code>{type}</code>
            </label>
          ))}
        </div>
        <span id="webhook-events-error" className="field-error" role={eventsError ? 'alert' : undefined}>
          {eventsError}
        </span>
      </fieldset>
      {editing && (
        <div className="field">
          <label htmlFor="webhook-status">Status</label>
          <select id="webhook-status" value={values.status} onChange={(event) => setValues({ ...values, status: event.target.value as Webhook['status'] })}>
            <option value="enabled">Enabled: deliveries are sent</option>
            <option value="disabled">Disabled: nothing is sent</option>
          </select>
        </div>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
