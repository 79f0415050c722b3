import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../components/dialog';
import { useIntegrationMutations } from '../api/integrations';
import { IntegrationForm } from './integration-form';

/** `Connect integration`: the form in a dialog; a connected integration opens its page. */
export function ConnectIntegrationDialog() {
  const [open, setOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const { create } = useIntegrationMutations();
  const navigate = useNavigate();
  return (
    <>
      <button type="button" className="button primary" onClick={() => (create.reset(), setFormKey(formKey + 1), setOpen(true))}>
        Connect integration
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Connect integration" description="Give your agents a GitHub account, a Slack app or a mail sender of your own.">
        <IntegrationForm
          key={formKey}
          busy={create.isPending}
          error={create.error ?? undefined}
          onSubmit={(body) =>
            create.mutate(body, {
              onSuccess: (integration) => {
                setOpen(false);
                navigate(`/integrations/${integration.integration_id}`);
              },
            })
          }
        />
      </Dialog>
    </>
  );
}
