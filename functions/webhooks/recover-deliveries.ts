import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { recoverDeliveries } from '#shared/services/webhook-redelivery';
import { recoverBody, webhookParams } from '#functions/webhooks/schemas';

/** POST /webhooks/{id}/recover {since} → 202 with how many failed deliveries were queued again. */
export const handler = routeHandler({ params: webhookParams, body: recoverBody }, async ({ tenantId, params, body }) =>
  jsonResponse(202, { webhook_id: params.webhook_id, since: body.since, queued: await recoverDeliveries(tenantId, params.webhook_id, body.since) }),
);
