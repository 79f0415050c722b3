import { useState } from 'react';
import { IfAllowed } from '../../../components/if-allowed';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { QueryState } from '../../../components/query-state';
import { DELIVERY_STATUSES, useDeliveries, useWebhookMutations, type DeliveryStatus } from '../api/webhooks';
import { DeliveryRow } from './delivery-row';
import { RecoverDialog } from './recover-dialog';

/** A webhook's deliveries, newest first, by status, with `Resend` and `Recover` for admins. */
export function DeliveriesSection({ webhookId }: { webhookId: string }) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const deliveries = useDeliveries(webhookId, status || undefined);
  const { resend } = useWebhookMutations();
  return (
    <section aria-labelledby="deliveries-heading">
      <div className="page-head">
        <h2 id="deliveries-heading">Deliveries</h2>
        <div className="actions">
          <button type="button" className="button ghost" onClick={() => void deliveries.refetch()} disabled={deliveries.isFetching}>
            {deliveries.isFetching ? 'Refreshing…' : 'Refresh'}
          </button>
          <IfAllowed role="admin">
            <RecoverDialog webhookId={webhookId} />
          </IfAllowed>
        </div>
      </div>
      <div className="filters">
        <div className="field">
          <label htmlFor="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(event) => setStatus(event.target.value as DeliveryStatus | '')}>
            <option value="">Any status</option>
            {DELIVERY_STATUSES.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </select>
        </div>
      </div>
      {resend.error && <ProblemMessage error={resend.error} />}
      {resend.isSuccess && (
        <p role="status" className="muted">
          Delivery {resend.data.delivery_id} queued to be sent again.
        </p>
      )}
      <QueryState
        query={deliveries}
        loading="Loading deliveries…"
        isEmpty={() => deliveries.items.length === 0}
        empty={status ? <p>No {status} delivery. Choose another status.</p> : <p>No deliveries yet. They appear when an event of a chosen type happens.</p>}
      >
        {() => (
          <ul className="plain-list stack">
            {deliveries.items.map((delivery) => (
              <DeliveryRow key={delivery.delivery_id} webhookId={webhookId} delivery={delivery} resending={resend.isPending && resend.variables?.deliveryId === delivery.delivery_id} onResend={() => resend.mutate({ webhookId, deliveryId: delivery.delivery_id })} />
            ))}
          </ul>
        )}
      </QueryState>
      <LoadMore query={deliveries} />
    </section>
  );
}
