import { renderRun } from '#shared/domain/trigger';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listRuns } from '#shared/services/triggers';
import { listRunsQuery, triggerParams } from '#functions/triggers/schemas';

/** GET /triggers/{trigger_id}/runs: the trigger's log, newest first. */
export const handler = routeHandler({ params: triggerParams, query: listRunsQuery }, async ({ tenantId, params, query }) => {
  const page = await listRuns(tenantId, params.trigger_id, query.limit, query.cursor);
  return jsonResponse(200, { runs: page.runs.map(renderRun), next_cursor: page.nextCursor });
});
