import { canonicalAgentFilter } from '#shared/agents/directory';
import { renderTask } from '#shared/domain/task';
import type { TaskStatus } from '#shared/domain/task-state';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listTasks } from '#shared/services/tasks';
import { listTasksQuery } from '#functions/tasks/schemas';

/** GET /tasks: newest first, filtered by agent (slug or alias), status, session and trigger, cursor-paged. */
export const handler = routeHandler({ query: listTasksQuery }, async ({ tenantId, query }) => {
  const agent = query.agent ? canonicalAgentFilter(query.agent) : undefined;
  const page = await listTasks(tenantId, { agent, status: query.status as TaskStatus | undefined, sessionId: query.session_id, triggerId: query.trigger_id, limit: query.limit, cursor: query.cursor });
  return jsonResponse(200, { tasks: page.tasks.map(renderTask), next_cursor: page.nextCursor, has_more: page.nextCursor !== null });
});
