import type { ScanReport } from '#shared/scans/exports/scan-report';

/** The full report as pretty-printed UTF-8 JSON, exactly the read model (no fields dropped). */
export function toJson(report: ScanReport): Buffer {
  return Buffer.from(`${JSON.stringify(report, null, 2)}\n`, 'utf8');
}
