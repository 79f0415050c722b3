import type { APIGatewayProxyResult } from 'aws-lambda';
import { SECURITY_HEADERS } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { exportScanFile } from '#shared/services/scan-export';
import { exportQuery, scanParams } from '#functions/scans/schemas';

/** GET /scans/{scan_id}/export?format=: the file itself, or a 303 to the export bucket for a large one. */
export const handler = routeHandler({ params: scanParams, query: exportQuery }, async ({ tenantId, params, query }): Promise<APIGatewayProxyResult> => {
  const exported = await exportScanFile(tenantId, params.scan_id, query.format);
  if (exported.location !== undefined) return { statusCode: 303, headers: { ...SECURITY_HEADERS, Location: exported.location }, body: '' };
  const { file } = exported;
  return {
    statusCode: 200,
    headers: { 'Content-Type': file.contentType, 'Content-Disposition': `attachment; filename="${file.fileName}"`, ...SECURITY_HEADERS },
    body: file.body.toString('base64'),
    isBase64Encoded: true,
  };
});
