import { renderWebhook } from '#shared/domain/webhook';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listWebhooks } from '#shared/services/webhooks';

export const handler = routeHandler({}, async ({ tenantId }) => jsonResponse(200, { webhooks: (await listWebhooks(tenantId)).map(renderWebhook), next_cursor: null }));
