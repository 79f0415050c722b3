import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { renderScan } from '#shared/scans/scan';
import { getScan } from '#shared/services/scans';
import { scanParams } from '#functions/scans/schemas';

export const handler = routeHandler({ params: scanParams }, async ({ tenantId, params }) => jsonResponse(200, renderScan(await getScan(tenantId, params.scan_id))));
