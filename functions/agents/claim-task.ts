import { renderClaim } from '#shared/domain/worker-views';
import { emptyResponse, jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { claimTask } from '#shared/services/worker-claims';
import { agentParams } from '#functions/agents/schemas';
import { claimBody } from '#functions/tasks/worker-schemas';

/** POST /agents/{agent_id}/claims: the next task of the caller's agent with a lease, or 204 once the wait ends. */
export const handler = routeHandler({ params: agentParams, body: claimBody }, async ({ caller, params, body }) => {
  const claim = await claimTask(caller, params.agent_id, body);
  return claim ? jsonResponse(200, renderClaim(claim)) : emptyResponse(204);
});
