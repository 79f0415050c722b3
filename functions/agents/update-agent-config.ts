import { renderAgent } from '#shared/domain/agent-deployment';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { updateAgentConfig } from '#shared/services/agents';
import { agentConfigBody, agentParams } from '#functions/agents/schemas';

/** PATCH /agents/{agent_slug or agent_id}/config → the agent with its whole config. */
export const handler = routeHandler({ params: agentParams, body: agentConfigBody }, async ({ tenantId, params, body }) =>
  jsonResponse(200, renderAgent(await updateAgentConfig(tenantId, params.agent_id, body))),
);
