import type { APIGatewayProxyResult } from 'aws-lambda';
import { getIntegerFromEnv } from '#shared/config/env';
import { SECURITY_HEADERS } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { exportScan } from '#shared/scans/exports/export-format';
import { buildScanReport } from '#shared/services/scan-report';
import { exportQuery, scanParams } from '#functions/scans/schemas';

/**
 * Lambda answers at most 6 MB, and a binary body grows by a third in base64: bigger exports go
 * to the export bucket and the answer is a redirect to a presigned URL valid for 5 minutes.
 */
const DEFAULT_INLINE_LIMIT = 4 * 1024 * 1024;

export const handler = routeHandler({ params: scanParams, query: exportQuery }, async ({ tenantId, params, query }): Promise<APIGatewayProxyResult> => {
  const report = await buildScanReport(tenantId, params.scan_id);
  const file = await exportScan(report, query.format);
  if (file.body.length > getIntegerFromEnv('EXPORT_INLINE_LIMIT_BYTES', DEFAULT_INLINE_LIMIT)) {
    // The S3 client and presigner load only for the rare export too large to answer inline.
    const { storeExport } = await import('#shared/adapters/s3/export-store');
    const location = await storeExport(`${tenantId}/${params.scan_id}/${Date.now()}-${file.fileName}`, file.body, file.contentType, file.fileName);
    return { statusCode: 303, headers: { ...SECURITY_HEADERS, Location: location }, body: '' };
  }
  return {
    statusCode: 200,
    headers: { 'Content-Type': file.contentType, 'Content-Disposition': `attachment; filename="${file.fileName}"`, ...SECURITY_HEADERS },
    body: file.body.toString('base64'),
    isBase64Encoded: true,
  };
});
