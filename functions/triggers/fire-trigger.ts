import { renderRun } from '#shared/domain/trigger';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { fireNow } from '#shared/services/trigger-execution';
import { getTrigger } from '#shared/services/triggers';
import { triggerParams } from '#functions/triggers/schemas';

/** POST /triggers/{trigger_id}/fire → 200 with the run: one run now, as the schedule would make it. */
export const handler = routeHandler({ params: triggerParams }, async ({ tenantId, params }) => jsonResponse(200, renderRun(await fireNow(await getTrigger(tenantId, params.trigger_id)))));
