import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { isoToLocalInput, localInputToIso } from '../../../lib/event-filters';
import { useWebhookMutations } from '../api/webhooks';

/** `Recover`: sends again every failed delivery since a time, for a receiver that was down. */
export function RecoverDialog({ webhookId }: { webhookId: string }) {
  const [open, setOpen] = useState(false);
  const [since, setSince] = useState(() => isoToLocalInput(new Date(Date.now() - 24 * 3600_000)));
  const { recover } = useWebhookMutations();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const iso = localInputToIso(since);
    if (iso) recover.mutate({ webhookId, since: iso });
  };
  return (
    <>
      <button type="button" className="button" onClick={() => (recover.reset(), setOpen(true))}>
        Recover
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Recover failed deliveries" description="Every failed delivery since this time is sent again.">
        {recover.data ? (
          <>
            <p role="status">
              {recover.data.queued === 0 ? 'No failed delivery since then: nothing to send again.' : `${recover.data.queued} ${recover.data.queued === 1 ? 'delivery' : 'deliveries'} queued to be sent again.`}
            </p>
            <div className="actions">
              <button type="button" className="button primary" onClick={() => setOpen(false)}>
                Done
              </button>
            </div>
          </>
        ) : (
          <form onSubmit={submit}>
            {recover.error && <ProblemMessage error={recover.error} />}
            <div className="field">
              <label htmlFor="recover-since">Failed since</label>
              <input id="recover-since" type="datetime-local" required value={since} onChange={(event) => setSince(event.target.value)} />
            </div>
            <div className="actions">
              <button type="submit" className="button primary" disabled={recover.isPending}>
                {recover.isPending ? 'Recovering…' : 'Recover failed deliveries'}
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
