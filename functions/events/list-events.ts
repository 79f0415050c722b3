import { renderEvent } from '#shared/domain/event-render';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listEvents } from '#shared/services/events';
import { listEventsQuery } from '#functions/events/schemas';

/** GET /events: the tenant's event log, oldest first within the window, cursor-paged. */
export const handler = routeHandler({ query: listEventsQuery }, async ({ tenantId, query }) => {
  const page = await listEvents(tenantId, { taskId: query.task_id, agent: query.agent, types: query.type, after: query.after, before: query.before, limit: query.limit, cursor: query.cursor });
  return jsonResponse(200, { events: page.events.map(renderEvent), next_cursor: page.nextCursor, has_more: page.nextCursor !== null });
});
