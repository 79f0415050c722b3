import { Link } from 'react-router';
import { errorUnder, Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import type { Integration } from '../../integrations/api/integrations';

/** What the form holds of a chat trigger's source, as typed (`integrationId` empty: the first slack integration). */
export interface ChatDraft {
  integrationId: string;
  channel: string;
  pattern: string;
}

interface ChatSourceFieldsProps {
  /** The form's id prefix maker, so ids stay unique per dialog. */
  id: (name: string) => string;
  value: ChatDraft;
  onChange: (value: ChatDraft) => void;
  errors: Record<string, string>;
  /** The tenant's slack integrations; undefined while they load or when loading them failed. */
  integrations: Integration[] | undefined;
  /** Why they could not be loaded. */
  loadError: unknown;
  /** The one the trigger will use. */
  chosen: Integration | undefined;
}

/** A chat trigger's source: a slack integration, one of its channels, and the pattern a message must match. */
export function ChatSourceFields({ id, value, onChange, errors, integrations, loadError, chosen }: ChatSourceFieldsProps) {
  const at = (path: string) => errorUnder(errors, path);
  return (
    <>
      {loadError ? <ProblemMessage error={loadError} /> : null}
      {integrations?.length === 0 ? (
        <p className="field-hint" role="status">
          No Slack integration is connected yet, and a chat trigger needs one: <Link to="/integrations">connect Slack on the Integrations page</Link> first.
        </p>
      ) : (
        <Field id={id('chat-integration')} label="Slack integration" hint={integrations || loadError ? undefined : 'Loading the Slack integrations…'} error={at('source.integration_id')}>
          {(props) => (
            <select {...props} required value={chosen?.integration_id ?? ''} onChange={(event) => onChange({ ...value, integrationId: event.target.value })}>
              {(integrations ?? []).map((item) => (
                <option key={item.integration_id} value={item.integration_id}>
                  {item.name}
                  {item.account.team ? ` (${item.account.team})` : ''}
                  {item.status === 'revoked' ? ' (revoked)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field id={id('chat-channel')} label="Channel id" hint="The Slack channel's id, such as C0123ABCD (at the bottom of the channel's details). Invite the bot there with /invite." error={at('source.channel')}>
        {(props) => <input {...props} required value={value.channel} spellCheck={false} autoComplete="off" onChange={(event) => onChange({ ...value, channel: event.target.value })} />}
      </Field>
      <Field id={id('chat-pattern')} label="Pattern" hint="A regular expression (case-insensitive), e.g. ^audit: each message a person writes there that matches starts a task." error={at('source.pattern')}>
        {(props) => <input {...props} required maxLength={200} value={value.pattern} spellCheck={false} onChange={(event) => onChange({ ...value, pattern: event.target.value })} />}
      </Field>
    </>
  );
}
