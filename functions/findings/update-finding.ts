import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { renderStoredFinding, updateFindingStatus } from '#shared/services/findings';
import { findingParams, updateFindingBody } from '#functions/scans/schemas';

/** PATCH /findings/{id}: dismiss with a reason and comment, or reopen. */
export const handler = routeHandler({ params: findingParams, body: updateFindingBody }, async ({ tenantId, params, body }) =>
  jsonResponse(200, renderStoredFinding(await updateFindingStatus(tenantId, params.finding_id, body))),
);
