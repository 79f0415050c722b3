import { renderTrigger } from '#shared/domain/trigger';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listTriggers } from '#shared/services/triggers';
import { listTriggersQuery } from '#functions/triggers/schemas';

/** GET /triggers: newest first, filtered by source type, cursor-paged. */
export const handler = routeHandler({ query: listTriggersQuery }, async ({ tenantId, query }) => {
  const page = await listTriggers(tenantId, query);
  const now = new Date();
  return jsonResponse(200, { triggers: page.triggers.map((trigger) => renderTrigger(trigger, now)), next_cursor: page.nextCursor });
});
