import { renderAgent } from '#shared/domain/agent-deployment';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listAgents } from '#shared/services/agents';

export const handler = routeHandler({}, async ({ tenantId }) => jsonResponse(200, { agents: (await listAgents(tenantId)).map(renderAgent), next_cursor: null }));
