import { JsonView } from '../../../components/json-view';
import { QueryState } from '../../../components/query-state';
import { RelativeTime } from '../../../components/relative-time';
import { useDelivery, type DeliveryDetail } from '../api/webhooks';

type Attempt = DeliveryDetail['attempts'][number];

/** The body indented when it is JSON (it always is as sent), else as it is. */
function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** What the latest attempt sent: method and URL, the headers with their signatures, the exact body. */
function SentRequest({ delivery }: { delivery: DeliveryDetail }) {
  const { request } = delivery;
  return (
    <section aria-label={`Request of delivery ${delivery.delivery_id}`}>
      <h4>Request{request.attempt !== undefined && <span className="muted"> (attempt {request.attempt})</span>}</h4>
      <p className="wrap">
        <code>
          {request.method} {request.url}
        </code>
      </p>
      {request.headers ? (
        <dl className="headers">
          {Object.entries(request.headers).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd className="wrap">
                <code>{value}</code>
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">Not sent yet: the headers appear with the first attempt.</p>
      )}
      <pre className="json-view" tabIndex={0} aria-label={`Request body of delivery ${delivery.delivery_id}`}>
        {prettyBody(request.body)}
      </pre>
    </section>
  );
}

/** One attempt's outcome and, when the receiver answered, the start of its answer. */
function AttemptResponse({ attempt, deliveryId }: { attempt: Attempt; deliveryId: string }) {
  const { response } = attempt;
  return (
    <li>
      <p>
        Attempt {attempt.attempt} · <RelativeTime value={attempt.at} /> · {attempt.latency_ms} ms ·{' '}
        {attempt.status_code !== undefined ? <span className={attempt.ok ? 'ok-text' : 'bad-text'}>HTTP {attempt.status_code}</span> : <span className="bad-text">{attempt.error ?? 'No answer'}</span>}
      </p>
      {response ? (
        <>
          <p className="muted">
            Content type: {response.content_type ? <code>{response.content_type}</code> : 'none given'}
            {response.truncated && ' · truncated: only the start of the body is kept'}
          </p>
          {response.body ? (
            <pre className="json-view" tabIndex={0} aria-label={`Response body of attempt ${attempt.attempt} of delivery ${deliveryId}`}>
              {response.body}
            </pre>
          ) : (
            <p className="muted">Empty body.</p>
          )}
        </>
      ) : (
        <p className="muted">{attempt.status_code === undefined ? 'No response.' : 'Response not kept (only the latest attempts keep theirs).'}</p>
      )}
    </li>
  );
}

/** A delivery opened: the request as sent and each attempt's response, loaded on first opening. */
export function DeliveryExchange({ webhookId, deliveryId, id }: { webhookId: string; deliveryId: string; id: string }) {
  const detail = useDelivery(webhookId, deliveryId, true);
  return (
    <div id={id} className="delivery-exchange">
      <QueryState query={detail} loading="Loading the request and responses…">
        {(delivery) => (
          <>
            <SentRequest delivery={delivery} />
            <section aria-label={`Responses of delivery ${delivery.delivery_id}`}>
              <h4>Responses</h4>
              {delivery.attempts.length ? (
                <ol className="plain-list stack">
                  {delivery.attempts.map((attempt) => (
                    <AttemptResponse key={attempt.attempt} attempt={attempt} deliveryId={delivery.delivery_id} />
                  ))}
                </ol>
              ) : (
                <p className="muted">No attempt yet.</p>
              )}
            </section>
            <details>
              <summary>As the API returns it</summary>
              <JsonView value={delivery} label={`Delivery ${delivery.delivery_id} as the API returns it`} />
            </details>
          </>
        )}
      </QueryState>
    </div>
  );
}
