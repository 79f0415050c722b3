import { useId, useState } from 'react';
import { CopyableId } from '../../../components/copyable-id';
import { IfAllowed } from '../../../components/if-allowed';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Delivery } from '../api/webhooks';
import { DeliveryExchange } from './delivery-exchange';

/** The latest attempt's outcome in a few words: its status code or its error. */
function lastOutcome(delivery: Delivery): string | undefined {
  const last = delivery.attempts.at(-1);
  if (!last) return undefined;
  return last.status_code !== undefined ? `HTTP ${last.status_code}` : (last.error ?? 'no answer');
}

/** One delivery: the event it carries, its status, `Resend` for admins, and a disclosure with its request and responses. */
export function DeliveryRow({ webhookId, delivery, onResend, resending }: { webhookId: string; delivery: Delivery; onResend: () => void; resending: boolean }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const outcome = lastOutcome(delivery);
  return (
    <li className="card delivery">
      <div className="delivery-head">
        <h3>
          <code>{delivery.event_type}</code>
        </h3>
        <StatusBadge status={delivery.status} />
        <span className="muted">
          {delivery.attempt_count} {delivery.attempt_count === 1 ? 'attempt' : 'attempts'}
          {outcome && <> (last: {outcome})</>} · created <RelativeTime value={delivery.created_at} />
          {delivery.next_attempt_at && (
            <>
              {' '}
              · next attempt <RelativeTime value={delivery.next_attempt_at} />
            </>
          )}
        </span>
        <IfAllowed role="admin">
          <button type="button" className="button small" disabled={resending} onClick={onResend} aria-label={`Resend delivery ${delivery.delivery_id}`}>
            {resending ? 'Resending…' : 'Resend'}
          </button>
        </IfAllowed>
      </div>
      <p>
        Event <CopyableId value={delivery.event_id} label="event id" />
      </p>
      {delivery.failure_reason && <p className="bad-text">{delivery.failure_reason}</p>}
      <button type="button" className="button ghost small" aria-expanded={open} aria-controls={open ? panelId : undefined} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} request and responses <span className="visually-hidden">of delivery {delivery.delivery_id}</span>
      </button>
      {open && <DeliveryExchange webhookId={webhookId} deliveryId={delivery.delivery_id} id={panelId} />}
    </li>
  );
}
