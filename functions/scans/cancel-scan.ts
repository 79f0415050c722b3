import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { cancelScan } from '#shared/services/scans';
import { scanParams } from '#functions/scans/schemas';

/** POST /scans/{id}/cancel → 200 cancelled; 409 once the scan finished. */
export const handler = routeHandler({ params: scanParams }, async ({ tenantId, params }) => {
  const scan = await cancelScan(tenantId, params.scan_id);
  return jsonResponse(200, { scan_id: scan.scan_id, status: scan.status });
});
