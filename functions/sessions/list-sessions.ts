import { canonicalAgentFilter } from '#shared/agents/directory';
import { renderSession } from '#shared/domain/session';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listSessions } from '#shared/services/sessions';
import { listSessionsQuery } from '#functions/sessions/schemas';

/** GET /sessions: newest first, filtered by agent (slug or alias) and status, cursor-paged. */
export const handler = routeHandler({ query: listSessionsQuery }, async ({ tenantId, query }) => {
  const agent = query.agent ? canonicalAgentFilter(query.agent) : undefined;
  const page = await listSessions(tenantId, { agent, status: query.status, limit: query.limit, cursor: query.cursor });
  return jsonResponse(200, { sessions: page.sessions.map(renderSession), next_cursor: page.nextCursor });
});
