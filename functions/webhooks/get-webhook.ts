import { renderWebhook } from '#shared/domain/webhook';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getWebhook } from '#shared/services/webhooks';
import { webhookParams } from '#functions/webhooks/schemas';

export const handler = routeHandler({ params: webhookParams }, async ({ tenantId, params }) => jsonResponse(200, renderWebhook(await getWebhook(tenantId, params.webhook_id))));
