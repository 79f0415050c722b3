import { emptyResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { deleteWebhook } from '#shared/services/webhooks';
import { webhookParams } from '#functions/webhooks/schemas';

export const handler = routeHandler({ params: webhookParams }, async ({ tenantId, params }) => {
  await deleteWebhook(tenantId, params.webhook_id);
  return emptyResponse(204);
});
