import { useNavigate, useParams, Link } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IfAllowed } from '../../components/if-allowed';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { useWebhook, useWebhookMutations } from './api/webhooks';
import { DeliveriesSection } from './components/deliveries-section';
import { EditWebhookDialog } from './components/edit-webhook-dialog';
import { RotateSecretDialog } from './components/rotate-secret-dialog';
import { WebhookFacts } from './components/webhook-facts';

/** One webhook: its facts, `Edit`, `Rotate secret`, `Delete`, and its deliveries. */
export function WebhookPage() {
  const { webhookId = '' } = useParams();
  const webhook = useWebhook(webhookId);
  const { remove } = useWebhookMutations();
  const navigate = useNavigate();
  return (
    <Page
      title="Webhook"
      intro={<Link to="/webhooks">All webhooks</Link>}
      actions={
        webhook.data && (
          <IfAllowed role="admin">
            <EditWebhookDialog webhook={webhook.data} />
            <RotateSecretDialog webhook={webhook.data} />
            <ConfirmDialog
              trigger={
                <button type="button" className="button danger">
                  Delete
                </button>
              }
              title="Delete this webhook?"
              description={`Nothing more is delivered to ${webhook.data.url}. This cannot be undone.`}
              confirmLabel="Delete webhook"
              danger
              onConfirm={async () => {
                await remove.mutateAsync(webhookId);
                navigate('/webhooks', { replace: true });
              }}
            />
          </IfAllowed>
        )
      }
    >
      <QueryState query={webhook} loading="Loading the webhook…">
        {(item) => (
          <>
            <WebhookFacts webhook={item} />
            <DeliveriesSection webhookId={item.webhook_id} />
          </>
        )}
      </QueryState>
    </Page>
  );
}
