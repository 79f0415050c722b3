import { CopyableId } from '../../../components/copyable-id';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Webhook } from '../api/webhooks';

/** What the API says of one webhook (never its secret). */
export function WebhookFacts({ webhook }: { webhook: Webhook }) {
  return (
    <dl className="facts card">
      <dt>Webhook</dt>
      <dd>
        <CopyableId value={webhook.webhook_id} label="webhook id" />
      </dd>
      <dt>URL</dt>
      <dd>
        <code>{webhook.url}</code>
      </dd>
      <dt>Status</dt>
      <dd>
        <StatusBadge status={webhook.status} /> {webhook.disabled_reason && <span className="muted">{webhook.disabled_reason}</span>}
      </dd>
      <dt>Events</dt>
      <dd>
        <ul className="plain-list">
          {webhook.events.map((type) => (
            <li key={type}>
              <code>{type}</code>
            </li>
          ))}
        </ul>
      </dd>
      <dt>Last success</dt>
      <dd>
        <RelativeTime value={webhook.last_success_at} />
      </dd>
      <dt>Failing since</dt>
      <dd>
        <RelativeTime value={webhook.failing_since} />
      </dd>
      {webhook.previous_secret_expires_at && (
        <>
          <dt>Previous secret valid until</dt>
          <dd>
            <RelativeTime value={webhook.previous_secret_expires_at} />
          </dd>
        </>
      )}
      <dt>Created</dt>
      <dd>
        <RelativeTime value={webhook.created_at} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <RelativeTime value={webhook.updated_at} />
      </dd>
    </dl>
  );
}
