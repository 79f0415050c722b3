import { useId, useState, type FormEvent } from 'react';
import { ProblemMessage } from '../../../components/problem-message';
import { INTEGRATION_KINDS, KIND_LABELS, type IntegrationKind, type NewIntegration } from '../api/integrations';
import { credentialErrors, credentialProblems, credentialsBody, CredentialsFields, EMPTY_CREDENTIALS, type CredentialValues } from './credentials-fields';
import { Field, FieldErrorCount, errorUnder } from '../../../components/field';

interface IntegrationFormProps {
  busy: boolean;
  error: unknown;
  onSubmit: (body: NewIntegration) => void;
}

const KIND_CHOICES: Record<IntegrationKind, string> = {
  github: 'GitHub: agents read repositories and open issues',
  slack: 'Slack: approval requests in a channel, decided there',
  email: 'Email: agents send approved mail from your sender',
};

/** Slack ids typed with commas, spaces or new lines between them. */
function idList(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/**
 * A new integration: its name, its kind, that kind's credentials (checked with the provider when
 * sent) and settings. The API's complaints show at their fields; others above the form.
 */
export function IntegrationForm({ busy, error, onSubmit }: IntegrationFormProps) {
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const [name, setName] = useState('');
  const [kind, setKind] = useState<IntegrationKind>('github');
  const [credentials, setCredentials] = useState<CredentialValues>(EMPTY_CREDENTIALS);
  const [apiUrl, setApiUrl] = useState('');
  const [channel, setChannel] = useState('');
  const [approvers, setApprovers] = useState('');
  const [from, setFrom] = useState('');
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});

  const errors = { ...credentialErrors(error), ...localErrors };
  const at = (path: string) => errorUnder(errors, path);
  const placed = ['name', 'kind', 'credentials', 'settings'].some((prefix) => at(prefix));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = credentialProblems(kind, credentials);
    setLocalErrors(problems);
    if (Object.keys(problems).length) return;
    const base = { name: name.trim() };
    const url = apiUrl.trim() ? { api_url: apiUrl.trim() } : {};
    if (kind === 'github') onSubmit({ ...base, kind, credentials: credentialsBody(kind, credentials) as { token: string }, settings: url });
    else if (kind === 'slack') {
      const chosen = idList(approvers);
      onSubmit({
        ...base,
        kind,
        credentials: credentialsBody(kind, credentials) as { bot_token: string; signing_secret: string },
        settings: { ...url, ...(channel.trim() ? { approvals_channel: channel.trim() } : {}), ...(chosen.length ? { approvers: chosen } : {}) },
      });
    } else onSubmit({ ...base, kind, credentials: credentialsBody(kind, credentials) as Extract<NewIntegration, { kind: 'email' }>['credentials'], settings: from.trim() ? { from: from.trim() } : {} });
  };

  const fieldCount = Object.keys(errors).length;
  return (
    <form onSubmit={submit} noValidate aria-label="Connect integration">
      {error !== undefined && !placed && <ProblemMessage error={error} />}
      <Field id={id('name')} label="Name" hint="What people and agent configurations know it by, e.g. “Acme GitHub”." error={at('name')}>
        {(props) => <input {...props} required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />}
      </Field>
      <Field id={id('kind')} label="Kind" error={at('kind')}>
        {(props) => (
          <select {...props} value={kind} onChange={(event) => (setKind(event.target.value as IntegrationKind), setLocalErrors({}))}>
            {INTEGRATION_KINDS.map((item) => (
              <option key={item} value={item}>
                {KIND_CHOICES[item]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset>
        <legend>{KIND_LABELS[kind]} credentials</legend>
        <p className="field-hint">Checked with the provider now, stored encrypted, and never shown again.</p>
        <CredentialsFields kind={kind} values={credentials} onChange={setCredentials} errors={errors} idPrefix={id('credentials')} />
      </fieldset>
      <fieldset>
        <legend>Settings</legend>
        {kind === 'email' ? (
          <Field id={id('from')} label="Sender" hint="The From of every message, e.g. Sales <sales@example.com>." error={at('settings.from')}>
            {(props) => <input {...props} required value={from} autoComplete="off" onChange={(event) => setFrom(event.target.value)} />}
          </Field>
        ) : (
          <Field
            id={id('api-url')}
            label="API URL (optional)"
            hint={kind === 'github' ? 'https://api.github.com unless set; for GitHub Enterprise Server https://HOST/api/v3.' : 'https://slack.com/api unless set.'}
            error={at('settings.api_url')}
          >
            {(props) => <input {...props} type="url" value={apiUrl} spellCheck={false} autoComplete="off" onChange={(event) => setApiUrl(event.target.value)} />}
          </Field>
        )}
        {kind === 'slack' && (
          <>
            <Field id={id('channel')} label="Approvals channel (optional)" hint="The id of the channel approval requests go to, e.g. C0123ABCD." error={at('settings.approvals_channel')}>
              {(props) => <input {...props} value={channel} spellCheck={false} autoComplete="off" onChange={(event) => setChannel(event.target.value)} />}
            </Field>
            <Field id={id('approvers')} label="Approvers (optional)" hint="Slack user ids of the people who may decide approvals in Slack, separated by commas or spaces, e.g. U0123ABCD." error={at('settings.approvers')}>
              {(props) => <input {...props} value={approvers} spellCheck={false} autoComplete="off" onChange={(event) => setApprovers(event.target.value)} />}
            </Field>
          </>
        )}
      </fieldset>
      <FieldErrorCount count={fieldCount} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Checking with the provider…' : 'Connect'}
        </button>
      </div>
    </form>
  );
}
