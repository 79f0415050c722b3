import { CopyableId } from '../../../components/copyable-id';
import { IfAllowed } from '../../../components/if-allowed';
import { JsonView } from '../../../components/json-view';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Delivery } from '../api/webhooks';

/** Each attempt of a delivery: when, the receiver's answer (status, time taken) or the error. */
function Attempts({ delivery }: { delivery: Delivery }) {
  if (!delivery.attempts.length) return <p className="muted">No attempt yet.</p>;
  return (
    <table>
      <caption className="visually-hidden">Attempts of delivery {delivery.delivery_id}</caption>
      <thead>
        <tr>
          <th scope="col">Attempt</th>
          <th scope="col">At</th>
          <th scope="col">Response</th>
          <th scope="col">Took</th>
        </tr>
      </thead>
      <tbody>
        {delivery.attempts.map((attempt) => (
          <tr key={attempt.attempt}>
            <td>{attempt.attempt}</td>
            <td>
              <RelativeTime value={attempt.at} />
            </td>
            <td>
              {attempt.status_code !== undefined && <span className={attempt.ok ? 'ok-text' : 'bad-text'}>HTTP {attempt.status_code}</span>} {attempt.error && <span className="bad-text">{attempt.error}</span>}
              {attempt.status_code === undefined && !attempt.error && (attempt.ok ? 'OK' : 'No answer')}
            </td>
            <td>{attempt.latency_ms} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One delivery: the event it carries, its status, its attempts, and `Resend` for admins. */
export function DeliveryRow({ delivery, onResend, resending }: { delivery: Delivery; onResend: () => void; resending: boolean }) {
  return (
    <li className="card delivery">
      <div className="delivery-head">
        <h3>
          <code>{delivery.event_type}</code>
        </h3>
        <StatusBadge status={delivery.status} />
        <span className="muted">
          {delivery.attempt_count} {delivery.attempt_count === 1 ? 'attempt' : 'attempts'} · created <RelativeTime value={delivery.created_at} />
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
      <details>
        <summary>
          Requests and responses <span className="visually-hidden">of delivery {delivery.delivery_id}</span>
        </summary>
        <Attempts delivery={delivery} />
        <JsonView value={delivery} label={`Delivery ${delivery.delivery_id} as the API returns it`} />
      </details>
    </li>
  );
}
