import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listAgentCatalog } from '#shared/services/agent-catalog';

/** GET /agents/catalog: the built-in agents one can deploy, with their task types. */
export const handler = routeHandler({}, async () => jsonResponse(200, { data: listAgentCatalog(), has_more: false, next_cursor: null }));
