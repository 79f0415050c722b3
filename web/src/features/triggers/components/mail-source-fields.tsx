import { errorUnder, Field } from '../../../components/field';
import { useIntegrationChoices } from '../api/triggers';

/** What the form holds of a mail trigger's source, as typed. */
export interface MailDraft {
  from: string;
  subject: string;
  integrationId: string;
}

interface MailSourceFieldsProps {
  /** The form's id prefix maker, so ids stay unique per dialog. */
  id: (name: string) => string;
  value: MailDraft;
  onChange: (value: MailDraft) => void;
  errors: Record<string, string>;
  /** The deployment receives no mail (config.json's `inboundMail: false`): say so instead of the fields. */
  unavailable?: boolean;
}

/** A mail trigger's source: the patterns a mail's sender and subject must match, and optionally its email integration. */
export function MailSourceFields({ id, value, onChange, errors, unavailable = false }: MailSourceFieldsProps) {
  const integrations = useIntegrationChoices('email', !unavailable);
  const at = (path: string) => errorUnder(errors, path);
  if (unavailable) {
    return (
      <p className="field-hint" role="status">
        Inbound mail is not available in this deployment’s region: Amazon SES does not receive mail there, so a mail trigger would never run. Choose a schedule, event or chat trigger.
      </p>
    );
  }
  return (
    <>
      <p className="field-hint">The trigger gets an address of its own once created: forward mail there.</p>
      <Field id={id('mail-from')} label="From pattern (optional)" hint="A regular expression the sender must match (case-insensitive), e.g. @example\.com$. Empty: any sender." error={at('source.match.from')}>
        {(props) => <input {...props} maxLength={200} value={value.from} spellCheck={false} onChange={(event) => onChange({ ...value, from: event.target.value })} />}
      </Field>
      <Field id={id('mail-subject')} label="Subject pattern (optional)" hint="A regular expression the subject must match (case-insensitive), e.g. ^audit. Empty: any subject." error={at('source.match.subject')}>
        {(props) => <input {...props} maxLength={200} value={value.subject} spellCheck={false} onChange={(event) => onChange({ ...value, subject: event.target.value })} />}
      </Field>
      <Field
        id={id('mail-integration')}
        label="Email integration (optional)"
        hint={integrations.isPending ? 'Loading the email integrations…' : 'The email account this trigger’s mail belongs with; the address works without one.'}
        error={at('source.integration_id')}
      >
        {(props) => (
          <select {...props} value={value.integrationId} onChange={(event) => onChange({ ...value, integrationId: event.target.value })}>
            <option value="">None</option>
            {(integrations.data ?? []).map((item) => (
              <option key={item.integration_id} value={item.integration_id}>
                {item.name}
                {item.status === 'revoked' ? ' (revoked)' : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}
