import { useId, useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { KIND_LABELS, useIntegrationMutations, type Integration } from '../api/integrations';
import { credentialErrors, credentialProblems, credentialsBody, CredentialsFields, EMPTY_CREDENTIALS, type CredentialValues } from './credentials-fields';

/**
 * `Replace credentials`: new ones of the same kind, checked with the provider like at connect; a
 * revoked integration becomes active again with them.
 */
export function ReplaceCredentialsDialog({ integration }: { integration: Integration }) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<CredentialValues>(EMPTY_CREDENTIALS);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const { replaceCredentials } = useIntegrationMutations();
  const errors = { ...credentialErrors(replaceCredentials.error), ...localErrors };
  const placed = Object.keys(errors).some((path) => path === 'credentials' || path.startsWith('credentials.'));
  const change = (next: boolean) => {
    setOpen(next);
    if (next) (setValues(EMPTY_CREDENTIALS), setLocalErrors({}), replaceCredentials.reset());
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = credentialProblems(integration.kind, values);
    setLocalErrors(problems);
    if (Object.keys(problems).length) return;
    replaceCredentials.mutate({ integrationId: integration.integration_id, credentials: credentialsBody(integration.kind, values) }, { onSuccess: () => setOpen(false) });
  };
  return (
    <>
      <button type="button" className="button" onClick={() => change(true)}>
        Replace credentials
      </button>
      <Dialog open={open} onOpenChange={change} title="Replace credentials" description={`New ${KIND_LABELS[integration.kind]} credentials for “${integration.name}”, checked with the provider before the old ones are dropped.`}>
        <form onSubmit={submit} noValidate aria-label="Replace credentials">
          {replaceCredentials.error && !placed && <ProblemMessage error={replaceCredentials.error} />}
          <CredentialsFields kind={integration.kind} values={values} onChange={setValues} errors={errors} idPrefix={`${ids}-credentials`} />
          <div className="actions">
            <button type="submit" className="button primary" disabled={replaceCredentials.isPending}>
              {replaceCredentials.isPending ? 'Checking with the provider…' : 'Replace credentials'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
