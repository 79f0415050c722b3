import { renderDelivery } from '#shared/domain/webhook';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listDeliveries } from '#shared/services/webhooks';
import { listDeliveriesQuery, webhookParams } from '#functions/webhooks/schemas';

/** GET /webhooks/{id}/deliveries: newest first, each with its attempt log. */
export const handler = routeHandler({ params: webhookParams, query: listDeliveriesQuery }, async ({ tenantId, params, query }) => {
  const page = await listDeliveries(tenantId, params.webhook_id, query);
  return jsonResponse(200, { deliveries: page.deliveries.map(renderDelivery), next_cursor: page.nextCursor, has_more: page.nextCursor !== null });
});
