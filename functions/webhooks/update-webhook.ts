import { renderWebhook } from '#shared/domain/webhook';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { updateWebhook } from '#shared/services/webhooks';
import { updateWebhookBody, webhookParams } from '#functions/webhooks/schemas';

/** PATCH /webhooks/{id}: url, events, or `status: enabled` to re-enable a disabled endpoint. */
export const handler = routeHandler({ params: webhookParams, body: updateWebhookBody }, async ({ tenantId, params, body }) =>
  jsonResponse(200, renderWebhook(await updateWebhook(tenantId, params.webhook_id, body))),
);
