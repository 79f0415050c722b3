import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { ShownOnce } from '../../../components/shown-once';
import { newSigningSecret } from '../../../lib/secret';
import { useWebhookMutations, type Webhook } from '../api/webhooks';

/** `Rotate secret`: a new signing secret, shown once; the old one keeps signing for the overlap. */
export function RotateSecretDialog({ webhook }: { webhook: Webhook }) {
  const [open, setOpen] = useState(false);
  const [overlap, setOverlap] = useState('24');
  const [secret, setSecret] = useState<string>();
  const { rotate } = useWebhookMutations();
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) (setSecret(undefined), rotate.reset());
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fresh = newSigningSecret();
    rotate.mutate({ webhookId: webhook.webhook_id, secret: fresh, overlapHours: Number(overlap) }, { onSuccess: () => setSecret(fresh) });
  };
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        Rotate secret
      </button>
      <Dialog open={open} onOpenChange={close} title={secret ? 'New signing secret' : 'Rotate secret'} description={secret ? undefined : 'Deliveries get signed with a new secret; during the overlap the old one signs them too, so your receiver can switch without losing any.'}>
        {secret ? (
          <>
            <ShownOnce value={secret} label="New signing secret" what="signing secret" />
            <div className="actions">
              <button type="button" className="button primary" onClick={() => close(false)}>
                Done
              </button>
            </div>
          </>
        ) : (
          <form onSubmit={submit}>
            {rotate.error && <ProblemMessage error={rotate.error} />}
            <div className="field">
              <label htmlFor="rotate-overlap">Overlap (hours)</label>
              <input id="rotate-overlap" type="number" min={0} max={168} step={1} required value={overlap} aria-describedby="rotate-overlap-hint" onChange={(event) => setOverlap(event.target.value)} />
              <span id="rotate-overlap-hint" className="field-hint">
                0 to 168. How long the old secret still signs deliveries.
              </span>
            </div>
            <div className="actions">
              <button type="submit" className="button primary" disabled={rotate.isPending}>
                {rotate.isPending ? 'Rotating…' : 'Rotate secret'}
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
