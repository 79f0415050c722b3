import { renderTrigger } from '#shared/domain/trigger';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getTrigger } from '#shared/services/triggers';
import { triggerParams } from '#functions/triggers/schemas';

/** GET /triggers/{trigger_id}: with a schedule's next five runs. */
export const handler = routeHandler({ params: triggerParams }, async ({ tenantId, params }) => jsonResponse(200, renderTrigger(await getTrigger(tenantId, params.trigger_id))));
