import { renderAgent } from '#shared/domain/agent-deployment';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { deployAgent } from '#shared/services/agents';
import { deployAgentBody } from '#functions/agents/schemas';

export const handler = routeHandler({ body: deployAgentBody }, async ({ tenantId, body }) => {
  const agent = await deployAgent(tenantId, body);
  return jsonResponse(201, renderAgent(agent), { Location: `/v1/agents/${agent.agent_id}` });
});
