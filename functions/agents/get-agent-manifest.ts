import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getDeployedAgent } from '#shared/services/agents';
import { agentParams } from '#functions/agents/schemas';

export const handler = routeHandler({ params: agentParams }, async ({ tenantId, params }) => {
  const { deployment, manifest } = await getDeployedAgent(tenantId, params.agent_id);
  return jsonResponse(200, { agent_id: deployment.agent_id, ...manifest });
});
