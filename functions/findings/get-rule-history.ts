import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { ruleHistory } from '#shared/services/findings';
import { historyParams } from '#functions/scans/schemas';

/** GET /projects/{id}/findings/{rule_id}/history: per scan, newest first, open or fixed with a count. */
export const handler = routeHandler({ params: historyParams }, async ({ tenantId, params }) => jsonResponse(200, await ruleHistory(tenantId, params.project_id, params.rule_id)));
