import { renderAgent } from '#shared/domain/agent-deployment';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getDeployedAgent } from '#shared/services/agents';
import { agentParams } from '#functions/agents/schemas';

export const handler = routeHandler({ params: agentParams }, async ({ tenantId, params }) => jsonResponse(200, renderAgent((await getDeployedAgent(tenantId, params.agent_id)).deployment)));
