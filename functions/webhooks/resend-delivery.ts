import { renderDelivery } from '#shared/domain/webhook';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { resendDelivery } from '#shared/services/webhook-redelivery';
import { deliveryParams } from '#functions/webhooks/schemas';

/** POST /webhooks/{id}/deliveries/{delivery_id}/resend → 202; the attempt is queued. */
export const handler = routeHandler({ params: deliveryParams }, async ({ tenantId, params }) =>
  jsonResponse(202, renderDelivery(await resendDelivery(tenantId, params.webhook_id, params.delivery_id))),
);
