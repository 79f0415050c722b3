import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listScans } from '#shared/services/scans';
import { listScansQuery, projectParams } from '#functions/scans/schemas';

/** GET /projects/{id}/scans: newest first, `status` filter, cursor paging. */
export const handler = routeHandler({ params: projectParams, query: listScansQuery }, async ({ tenantId, params, query }) => {
  const page = await listScans(tenantId, params.project_id, query);
  return jsonResponse(200, {
    data: page.scans.map((scan) => ({ scan_id: scan.scan_id, status: scan.status, risk_score: scan.risk_score ?? null, risk_level: scan.risk_level ?? null, created_at: scan.created_at, completed_at: scan.completed_at ?? null })),
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  });
});
