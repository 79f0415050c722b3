import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Webhook } from '../api/webhooks';

/** The tenant's webhook endpoints: where, which events, whether they are healthy. */
export function WebhooksTable({ webhooks }: { webhooks: Webhook[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Webhook endpoints</caption>
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
            <th scope="col">Last success</th>
            <th scope="col">Failing since</th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((webhook) => (
            <tr key={webhook.webhook_id}>
              <td className="wrap">
                <Link to={`/webhooks/${webhook.webhook_id}`}>{webhook.url}</Link>
              </td>
              <td>{webhook.events.length === 1 ? <code>{webhook.events[0]}</code> : `${webhook.events.length} types`}</td>
              <td>
                <StatusBadge status={webhook.status} />
              </td>
              <td>
                <RelativeTime value={webhook.last_success_at} />
              </td>
              <td>
                <RelativeTime value={webhook.failing_since} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
