import { renderTrigger } from '#shared/domain/trigger';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { createTrigger } from '#shared/services/trigger-admin';
import { createTriggerBody } from '#functions/triggers/schemas';

/** POST /triggers → 201; an enabled schedule trigger gets its schedule. */
export const handler = routeHandler({ body: createTriggerBody }, async ({ tenantId, body }) => {
  const trigger = await createTrigger(tenantId, body);
  return jsonResponse(201, renderTrigger(trigger), { Location: `/v1/triggers/${trigger.trigger_id}` });
});
