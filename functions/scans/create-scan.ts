import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { createScan } from '#shared/services/scan-creation';
import { createScanBody, projectParams } from '#functions/scans/schemas';

/** POST /projects/{id}/scans → 201 pending, with the detectors and an estimate from past scans. */
export const handler = routeHandler({ params: projectParams, body: createScanBody }, async ({ tenantId, params, body }) => {
  const scan = await createScan(tenantId, params.project_id, body);
  return jsonResponse(
    201,
    { scan_id: scan.scan_id, project_id: scan.project_id, status: scan.status, detectors: scan.detectors, created_at: scan.created_at, estimated_duration_seconds: scan.estimated_duration_seconds },
    { Location: `/v1/scans/${scan.scan_id}` },
  );
});
