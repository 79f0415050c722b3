import { useEffect, useState, type FormEvent } from 'react';
import type { components } from '../../../api/schema';
import { fieldErrors } from '../../../api/problem-error';
import { ProblemMessage } from '../../../components/problem-message';
import { QueryState } from '../../../components/query-state';
import { RelativeTime } from '../../../components/relative-time';
import { usePermission } from '../../../lib/permissions';
import { useChangeRetention, useRetention } from '../api/retention';

type Retention = components['schemas']['RetentionSettings'];

const days = (value: number | null) => (value === null ? 'Indefinitely' : `${value} ${value === 1 ? 'day' : 'days'}`);

/** The change form (admins): a number of days, or indefinitely where the plan allows it. */
function RetentionForm({ settings }: { settings: Retention }) {
  const change = useChangeRetention();
  const [forever, setForever] = useState(settings.retention_days === null);
  const [value, setValue] = useState(String(settings.retention_days ?? settings.default_retention_days ?? settings.longest_finite_retention_days));
  useEffect(() => setForever(settings.retention_days === null), [settings.retention_days]);
  const errors = fieldErrors(change.error, 'body');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(forever ? null : Number(value));
  };
  const max = settings.max_retention_days ?? settings.longest_finite_retention_days;
  return (
    <form onSubmit={submit} className="card">
      {change.error && !errors.retention_days && <ProblemMessage error={change.error} />}
      <fieldset>
        <legend>Keep artifacts</legend>
        <label className="check">
          <input type="radio" name="retention-kind" checked={!forever} onChange={() => setForever(false)} />
          For a set number of days
        </label>
        {settings.indefinite_allowed && (
          <label className="check">
            <input type="radio" name="retention-kind" checked={forever} onChange={() => setForever(true)} />
            Indefinitely
          </label>
        )}
      </fieldset>
      {!forever && (
        <div className="field">
          <label htmlFor="retention-days">Number of days</label>
          <input id="retention-days" type="number" required min={settings.min_retention_days} max={max} step={1} value={value} aria-invalid={errors.retention_days ? true : undefined} aria-describedby="retention-days-hint retention-days-error" onChange={(event) => setValue(event.target.value)} />
          <span id="retention-days-hint" className="field-hint">
            Your plan allows {settings.min_retention_days} to {max} days{settings.indefinite_allowed ? ', or indefinitely' : ''}. Existing artifacts follow the change within minutes.
          </span>
          <span id="retention-days-error" className="field-error">
            {errors.retention_days}
          </span>
        </div>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={change.isPending}>
          {change.isPending ? 'Saving…' : 'Save retention'}
        </button>
        <span role="status" className="muted">
          {change.isSuccess ? `Saved: artifacts are kept ${days(change.data.retention_days).toLowerCase()}.` : ''}
        </span>
      </div>
    </form>
  );
}

/** `Data retention`: how long artifacts are kept; admins change it. */
export function RetentionPanel() {
  const retention = useRetention();
  const canChange = usePermission('admin');
  return (
    <section aria-labelledby="retention-heading">
      <h2 id="retention-heading">Data retention</h2>
      <QueryState query={retention} loading="Loading retention…">
        {(settings) => (
          <>
            <dl className="facts card">
              <dt>Plan</dt>
              <dd>{settings.plan}</dd>
              <dt>Artifacts are kept</dt>
              <dd>{days(settings.retention_days)}</dd>
              <dt>Plan default</dt>
              <dd>{days(settings.default_retention_days)}</dd>
              <dt>Applies to</dt>
              <dd>{settings.applies_to.join(', ')}</dd>
              <dt>Last changed</dt>
              <dd>{settings.updated_at ? <RelativeTime value={settings.updated_at} /> : 'Never'}</dd>
            </dl>
            {canChange.allowed ? <RetentionForm settings={settings} /> : <p className="muted">Only admins change retention. {canChange.reason}</p>}
          </>
        )}
      </QueryState>
    </section>
  );
}
