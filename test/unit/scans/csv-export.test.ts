import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, neutralizeFormula, toCsv } from '#shared/scans/exports/csv';
import { fixture, TRICKY_TITLE } from './report-fixture';

describe('CSV export', () => {
  it('parses back to a header and one row per finding, quoting intact', () => {
    const report = fixture();

    const csv = toCsv(report).toString('utf8');
    const rows = parse(csv) as string[][];

    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(report.findings.length + 1);
    const expected = report.findings.map((f) => [
      f.id,
      f.detector,
      f.severity,
      f.rule_id,
      f.title,
      f.status,
      f.location.url,
      f.location.selector ?? '',
      f.location.line === undefined ? '' : String(f.location.line),
      f.location.column === undefined ? '' : String(f.location.column),
      String(f.cvss_score),
      f.first_seen_at,
      f.remediation,
      f.references.join(' '),
    ]);
    expect(rows.slice(1)).toEqual(expected);
    expect(rows[4][4]).toBe(TRICKY_TITLE);
  });

  it('uses CRLF record ends and quotes fields with commas, quotes or line breaks (RFC 4180)', () => {
    const csv = toCsv(fixture()).toString('utf8');

    expect(csv.startsWith(`${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(csv).toContain('"Image ""hero, banner"" has no alt text,\nso screen readers say ""image"""');
  });

  it('neutralizes cells a spreadsheet would run as formulas', () => {
    const report = fixture();
    report.findings[0].title = '=HYPERLINK("https://evil.example","click")';

    const rows = parse(toCsv(report)) as string[][];

    expect(rows[1][4]).toBe(`'=HYPERLINK("https://evil.example","click")`);
    expect(neutralizeFormula('plain text')).toBe('plain text');
  });
});
