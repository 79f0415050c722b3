import { renderDeliveryDetail } from '#shared/domain/webhook';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getDelivery } from '#shared/services/webhooks';
import { deliveryParams } from '#functions/webhooks/schemas';

/** GET /webhooks/{id}/deliveries/{delivery_id}: the request as sent and each attempt's response. */
export const handler = routeHandler({ params: deliveryParams }, async ({ tenantId, params }) => {
  const { webhook, delivery, body } = await getDelivery(tenantId, params.webhook_id, params.delivery_id);
  return jsonResponse(200, renderDeliveryDetail(delivery, body, webhook.url));
});
