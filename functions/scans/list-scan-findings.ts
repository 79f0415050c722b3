import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listScanFindings } from '#shared/services/findings';
import { listFindingsQuery, scanParams } from '#functions/scans/schemas';

export const handler = routeHandler({ params: scanParams, query: listFindingsQuery }, async ({ tenantId, params, query }) =>
  jsonResponse(200, await listScanFindings(tenantId, params.scan_id, { detector: query.detector, severities: query.severity, limit: query.limit, cursor: query.cursor })),
);
