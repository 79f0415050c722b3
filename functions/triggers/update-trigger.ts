import { renderTrigger } from '#shared/domain/trigger';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { updateTrigger } from '#shared/services/trigger-admin';
import { triggerParams, updateTriggerBody } from '#functions/triggers/schemas';

/** PATCH /triggers/{trigger_id}: rename, change, pause (`enabled: false`) or resume. */
export const handler = routeHandler({ params: triggerParams, body: updateTriggerBody }, async ({ tenantId, params, body }) =>
  jsonResponse(200, renderTrigger(await updateTrigger(tenantId, params.trigger_id, body))),
);
