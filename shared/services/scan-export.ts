import { getIntegerFromEnv } from '#shared/config/env';
import { exportScan, type ExportedFile, type ExportFormat } from '#shared/scans/exports/export-format';
import { buildScanReport } from '#shared/services/scan-report';

/**
 * Lambda answers at most 6 MB, and a binary body grows by a third in base64: bigger exports go
 * to the export bucket and the answer is a redirect to a presigned URL valid for 5 minutes.
 */
const DEFAULT_INLINE_LIMIT = 4 * 1024 * 1024;

/** An export small enough to answer inline, or the short-lived download URL of one stored in the export bucket. */
export type ScanExport = { file: ExportedFile; location?: undefined } | { location: string; file?: undefined };

/** Renders a scan's export in `format`; one too large to answer inline is stored and linked instead. */
export async function exportScanFile(tenantId: string, scanId: string, format: ExportFormat): Promise<ScanExport> {
  const report = await buildScanReport(tenantId, scanId);
  const file = await exportScan(report, format);
  if (file.body.length <= getIntegerFromEnv('EXPORT_INLINE_LIMIT_BYTES', DEFAULT_INLINE_LIMIT)) return { file };
  // The S3 client and presigner load only for the rare export too large to answer inline.
  const { storeExport } = await import('#shared/adapters/s3/export-store');
  return { location: await storeExport(`${tenantId}/${scanId}/${Date.now()}-${file.fileName}`, file.body, file.contentType, file.fileName) };
}
