import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getFinding, renderStoredFinding } from '#shared/services/findings';
import { findingParams } from '#functions/scans/schemas';

export const handler = routeHandler({ params: findingParams }, async ({ tenantId, params }) => jsonResponse(200, renderStoredFinding(await getFinding(tenantId, params.finding_id))));
