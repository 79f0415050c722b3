import { emptyResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { deleteTrigger } from '#shared/services/trigger-admin';
import { triggerParams } from '#functions/triggers/schemas';

/** DELETE /triggers/{trigger_id} → 204; its schedule goes with it. */
export const handler = routeHandler({ params: triggerParams }, async ({ tenantId, params }) => {
  await deleteTrigger(tenantId, params.trigger_id);
  return emptyResponse(204);
});
