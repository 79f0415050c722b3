/**
 * CSV export (RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break,
 * quotes doubled), one header row and one row per finding of any status.
 */
import { stringify } from 'csv-stringify/sync';
import type { ReportFinding, ScanReport } from '#shared/scans/exports/scan-report';

export const CSV_COLUMNS = [
  'id',
  'detector',
  'severity',
  'rule_id',
  'title',
  'status',
  'url',
  'selector',
  'line',
  'column',
  'cvss_score',
  'first_seen_at',
  'remediation',
  'references',
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or CR) as a formula; scanned pages
 * choose titles, selectors and URLs, so such text cells are prefixed with an apostrophe (OWASP
 * "CSV injection"). Numbers and ids are ours and left as they are.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One CSV row for a finding, keyed by column; absent values are empty cells. */
export function csvRow(finding: ReportFinding): Record<CsvColumn, string> {
  const text = (value: string | undefined): string => neutralizeFormula(value ?? '');
  const num = (value: number | undefined): string => (value === undefined ? '' : String(value));
  return {
    id: finding.id,
    detector: finding.detector,
    severity: finding.severity,
    rule_id: finding.rule_id,
    title: text(finding.title),
    status: finding.status,
    url: text(finding.location.url),
    selector: text(finding.location.selector),
    line: num(finding.location.line),
    column: num(finding.location.column),
    cvss_score: String(finding.cvss_score),
    first_seen_at: finding.first_seen_at,
    remediation: text(finding.remediation),
    references: text(finding.references.join(' ')),
  };
}

/** The report's findings as RFC 4180 CSV (UTF-8, no BOM). */
export function toCsv(report: ScanReport): Buffer {
  const csv = stringify(report.findings.map(csvRow), {
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: 'windows',
  });
  return Buffer.from(csv, 'utf8');
}
