import { IfAllowed } from '../../components/if-allowed';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { useWebhooks } from './api/webhooks';
import { AddWebhookDialog } from './components/add-webhook-dialog';
import { WebhooksTable } from './components/webhooks-table';

/** Webhooks: the endpoints that receive the tenant's events; admins add them. */
export function WebhooksPage() {
  const webhooks = useWebhooks();
  return (
    <Page
      title="Webhooks"
      intro="Endpoints that receive your tenant's events, signed, with retries."
      actions={
        <IfAllowed role="admin">
          <AddWebhookDialog />
        </IfAllowed>
      }
    >
      <QueryState query={webhooks} loading="Loading webhooks…" isEmpty={(items) => items.length === 0} empty={<p>No webhooks yet. An admin can add one to receive your tenant's events.</p>}>
        {(items) => <WebhooksTable webhooks={items} />}
      </QueryState>
    </Page>
  );
}
