import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import { canonicalAgentFilter } from '#shared/agents/directory';
import { renderEvent } from '#shared/domain/event-render';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listEventsQuery } from '#functions/events/schemas';

/** GET /events: the tenant's event log, oldest first within the window, cursor-paged. */
export const handler = routeHandler({ query: listEventsQuery }, async ({ tenantId, query }) => {
  const agent = query.agent ? canonicalAgentFilter(query.agent) : undefined;
  const page = await eventRepository.list(tenantId, { taskId: query.task_id, agent, types: query.type, after: query.after, before: query.before, limit: query.limit, cursor: query.cursor });
  return jsonResponse(200, { events: page.events.map(renderEvent), next_cursor: page.nextCursor, has_more: page.nextCursor !== null });
});
