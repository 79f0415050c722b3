/**
 * One entry point for downloads: the report in the asked format with its content type and a
 * file name fit for Content-Disposition.
 */
import { toJson } from '#shared/scans/exports/json';
import { toSarif } from '#shared/scans/exports/sarif';
import type { ScanReport } from '#shared/scans/exports/scan-report';

export const EXPORT_FORMATS = ['json', 'sarif', 'csv', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportedFile {
  body: Buffer;
  contentType: string;
  fileName: string;
}

const FORMATS: Record<ExportFormat, { contentType: string; extension: string; render: (r: ScanReport) => Buffer | Promise<Buffer> }> = {
  json: { contentType: 'application/json', extension: 'json', render: toJson },
  sarif: {
    contentType: 'application/sarif+json',
    extension: 'sarif',
    render: (report) => Buffer.from(`${JSON.stringify(toSarif(report), null, 2)}\n`, 'utf8'),
  },
  // CSV and PDF load on first use: their libraries (csv-stringify; pdfkit with its fonts and
  // brotli) would otherwise be evaluated at every cold start, for every other format too.
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv', render: async (report) => (await import('#shared/scans/exports/csv')).toCsv(report) },
  pdf: { contentType: 'application/pdf', extension: 'pdf', render: async (report) => (await import('#shared/scans/exports/pdf')).toPdf(report) },
};

export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === 'string' && (EXPORT_FORMATS as readonly string[]).includes(value);
}

/** `gatehouse-scan-<scan_id>.<ext>`, with anything but letters, digits, '-' and '_' dropped from the id (header safety). */
export function exportFileName(scanId: string, format: ExportFormat): string {
  return `gatehouse-scan-${scanId.replace(/[^A-Za-z0-9_-]/g, '')}.${FORMATS[format].extension}`;
}

/** Renders the report in `format`. */
export async function exportScan(report: ScanReport, format: ExportFormat): Promise<ExportedFile> {
  const spec = FORMATS[format];
  return { body: await spec.render(report), contentType: spec.contentType, fileName: exportFileName(report.scan_id, format) };
}
