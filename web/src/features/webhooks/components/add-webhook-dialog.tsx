import { useState } from 'react';
import { Link } from 'react-router';
import { Dialog } from '../../../components/dialog';
import { ShownOnce } from '../../../components/shown-once';
import { newSigningSecret } from '../../../lib/secret';
import { useWebhookMutations, type Webhook } from '../api/webhooks';
import { WebhookForm } from './webhook-form';

/** `Add webhook`: URL and event types; the signing secret, made here, is shown once on success. */
export function AddWebhookDialog() {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<{ webhook: Webhook; secret: string }>();
  const { create } = useWebhookMutations();
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) (setCreated(undefined), create.reset());
  };
  const submit = (values: { url: string; events: Webhook['events'] }) => {
    const secret = newSigningSecret();
    create.mutate({ url: values.url, events: values.events as never, secret }, { onSuccess: (webhook) => setCreated({ webhook, secret }) });
  };
  return (
    <>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        Add webhook
      </button>
      <Dialog open={open} onOpenChange={close} title={created ? 'Webhook added' : 'Add webhook'} description={created ? undefined : 'Choose where to send events and which ones.'}>
        {created ? (
          <>
            <p>
              Deliveries to <code>{created.webhook.url}</code> are signed with this secret (<code>X-Service-Signature</code> and the Standard Webhooks headers). Your receiver needs it to verify them.
            </p>
            <ShownOnce value={created.secret} label="Signing secret" what="signing secret" />
            <div className="actions">
              <Link className="button" to={`/webhooks/${created.webhook.webhook_id}`} onClick={() => close(false)}>
                Open the webhook
              </Link>
              <button type="button" className="button primary" onClick={() => close(false)}>
                Done
              </button>
            </div>
          </>
        ) : (
          <WebhookForm initial={{ url: '', events: ['task.complete', 'task.failed'], status: 'enabled' }} submitLabel="Add webhook" busy={create.isPending} error={create.error ?? undefined} onSubmit={submit} />
        )}
      </Dialog>
    </>
  );
}
