import { fieldErrors, ProblemError } from '../../../api/problem-error';
import type { IntegrationCredentials, IntegrationKind } from '../api/integrations';
import { errorUnder, Field } from '../../../components/field';

/** Everything a credentials form may hold, whatever the kind; only the kind's own fields are sent. */
export interface CredentialValues {
  token: string;
  botToken: string;
  signingSecret: string;
  /** Email: the tenant's SMTP server, or the deployment's own Amazon SES sending. */
  mail: 'smtp' | 'ses';
  host: string;
  port: string;
  username: string;
  password: string;
  secure: boolean;
}

export const EMPTY_CREDENTIALS: CredentialValues = { token: '', botToken: '', signingSecret: '', mail: 'smtp', host: '', port: '587', username: '', password: '', secure: false };

/** The credentials of `kind` as the API takes them. */
export function credentialsBody(kind: IntegrationKind, values: CredentialValues): IntegrationCredentials {
  if (kind === 'github') return { token: values.token.trim() };
  if (kind === 'slack') return { bot_token: values.botToken.trim(), signing_secret: values.signingSecret.trim() };
  if (values.mail === 'ses') return { ses: true };
  return {
    host: values.host.trim(),
    port: Number(values.port),
    ...(values.username.trim() ? { username: values.username.trim() } : {}),
    ...(values.password ? { password: values.password } : {}),
    secure: values.secure,
  };
}

/**
 * The API's field errors keyed by their path under `body`; when the provider refused the
 * credentials, the one at `credentials` says why in the problem's own words ("GitHub refused the
 * token (401 Bad credentials)") rather than only "refused by the provider".
 */
export function credentialErrors(error: unknown): Record<string, string> {
  const errors = fieldErrors(error, 'body');
  if (error instanceof ProblemError && error.code === 'integration_credentials_invalid' && errors.credentials) {
    const detail = error.message.startsWith(`${error.title}: `) ? error.message.slice(error.title.length + 2) : error.message;
    errors.credentials = detail;
  }
  return errors;
}

/** What the browser can tell before asking the API, keyed like the API's paths under `body`. */
export function credentialProblems(kind: IntegrationKind, values: CredentialValues): Record<string, string> {
  if (kind !== 'email' || values.mail === 'ses') return {};
  const port = Number(values.port);
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? {} : { 'credentials.port': 'Enter a port from 1 to 65535, e.g. 587.' };
}

interface CredentialsFieldsProps {
  kind: IntegrationKind;
  values: CredentialValues;
  onChange: (values: CredentialValues) => void;
  /** Field errors keyed by their path under `body` (`credentials.token`). */
  errors: Record<string, string>;
  /** Makes the controls' ids unique on the page. */
  idPrefix: string;
}

/**
 * The credentials of one kind, secrets in password fields. A refusal of the credentials as a
 * whole (`credentials`, e.g. a token the provider does not accept) shows at the secret the
 * provider checked: the token, the bot token, the SMTP password (or host without one).
 */
export function CredentialsFields({ kind, values, onChange, errors, idPrefix }: CredentialsFieldsProps) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const whole = errors.credentials;
  const at = (field: string) => errorUnder(errors, `credentials.${field}`);
  const set = (patch: Partial<CredentialValues>) => onChange({ ...values, ...patch });
  const secret = { type: 'password', autoComplete: 'off', spellCheck: false } as const;

  if (kind === 'github')
    return (
      <Field id={id('token')} label="Token" hint="A fine-grained or classic personal access token (or a GitHub App installation token) with access to the repositories your agents read." error={at('token') ?? whole}>
        {(props) => <input {...props} {...secret} required value={values.token} onChange={(event) => set({ token: event.target.value })} />}
      </Field>
    );

  if (kind === 'slack')
    return (
      <>
        <Field id={id('bot-token')} label="Bot token" hint="The app's Bot User OAuth Token (xoxb-…), under OAuth & Permissions." error={at('bot_token') ?? whole}>
          {(props) => <input {...props} {...secret} required value={values.botToken} onChange={(event) => set({ botToken: event.target.value })} />}
        </Field>
        <Field id={id('signing-secret')} label="Signing secret" hint="The app's Signing Secret (hex), under Basic Information: Gatehouse checks Slack's requests with it." error={at('signing_secret')}>
          {(props) => <input {...props} {...secret} required value={values.signingSecret} onChange={(event) => set({ signingSecret: event.target.value })} />}
        </Field>
      </>
    );

  const smtp = values.mail === 'smtp';
  return (
    <>
      <Field id={id('mail')} label="Sent through" error={smtp ? undefined : whole}>
        {(props) => (
          <select {...props} value={values.mail} onChange={(event) => set({ mail: event.target.value as CredentialValues['mail'] })}>
            <option value="smtp">Your SMTP server</option>
            <option value="ses">This deployment's Amazon SES sending</option>
          </select>
        )}
      </Field>
      {smtp && (
        <>
          <Field id={id('host')} label="SMTP host" hint="e.g. smtp.example.com" error={at('host') ?? (values.password ? undefined : whole)}>
            {(props) => <input {...props} required value={values.host} spellCheck={false} autoComplete="off" onChange={(event) => set({ host: event.target.value })} />}
          </Field>
          <Field id={id('port')} label="Port" hint="587 with STARTTLS, 465 with TLS from the start." error={at('port')}>
            {(props) => <input {...props} type="number" min={1} max={65535} step={1} required value={values.port} onChange={(event) => set({ port: event.target.value })} />}
          </Field>
          <label className="check">
            <input type="checkbox" checked={values.secure} onChange={(event) => set({ secure: event.target.checked })} />
            TLS from the start (port 465)
          </label>
          <Field id={id('username')} label="Username (optional)" error={at('username')}>
            {(props) => <input {...props} value={values.username} spellCheck={false} autoComplete="off" onChange={(event) => set({ username: event.target.value })} />}
          </Field>
          <Field id={id('password')} label="Password (optional)" error={at('password') ?? (values.password ? whole : undefined)}>
            {(props) => <input {...props} {...secret} value={values.password} onChange={(event) => set({ password: event.target.value })} />}
          </Field>
        </>
      )}
    </>
  );
}
