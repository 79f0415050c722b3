import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { useWebhookMutations, type Webhook, type WebhookEventType } from '../api/webhooks';
import { WebhookForm } from './webhook-form';

/** `Edit`: a webhook's URL, event types and status (PATCH). */
export function EditWebhookDialog({ webhook }: { webhook: Webhook }) {
  const [open, setOpen] = useState(false);
  const { update } = useWebhookMutations();
  return (
    <>
      <button type="button" className="button" onClick={() => (update.reset(), setOpen(true))}>
        Edit
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Edit webhook">
        <WebhookForm
          editing
          initial={{ url: webhook.url, events: webhook.events as WebhookEventType[], status: webhook.status }}
          submitLabel="Save changes"
          busy={update.isPending}
          error={update.error ?? undefined}
          onSubmit={(values) => update.mutate({ webhookId: webhook.webhook_id, ...values }, { onSuccess: () => setOpen(false) })}
        />
      </Dialog>
    </>
  );
}
