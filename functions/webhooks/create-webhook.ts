import { renderWebhook } from '#shared/domain/webhook';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { createWebhook } from '#shared/services/webhook-secrets';
import { createWebhookBody } from '#functions/webhooks/schemas';

/** POST /webhooks → 201; the secret is stored encrypted and never returned. */
export const handler = routeHandler({ body: createWebhookBody }, async ({ tenantId, body }) => {
  const webhook = await createWebhook(tenantId, body);
  return jsonResponse(201, renderWebhook(webhook), { Location: `/v1/webhooks/${webhook.webhook_id}` });
});
