import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, neutralizeFormula, toCsv } from '#shared/scans/exports/csv';
import { exportScan } from '#shared/scans/exports/export-format';
import { toPdf } from '#shared/scans/exports/pdf';
import { FINGERPRINT_KEY, toSarif } from '#shared/scans/exports/sarif';
import type { ReportFinding, ScanReport } from '#shared/scans/exports/scan-report';
import { SARIF_SCHEMA_PATH } from '../../support/sarif-schema';

const SCHEMA_PATH = SARIF_SCHEMA_PATH;

const TRICKY_TITLE = 'Image "hero, banner" has no alt text,\nso screen readers say "image"';
const TOP_TITLE = 'Reflected XSS in search parameter';

function finding(overrides: Partial<ReportFinding> & Pick<ReportFinding, 'id' | 'detector' | 'rule_id' | 'severity' | 'title'>): ReportFinding {
  return {
    description: 'A description.',
    location: { type: 'url', url: 'https://shop.example.com/' },
    remediation: 'Fix it.',
    references: [],
    cvss_score: 0,
    status: 'open',
    fingerprint: `fp-${overrides.id}`,
    first_seen_at: '2025-01-10T09:00:00.000Z',
    ...overrides,
  };
}

function fixture(): ScanReport {
  return {
    scan_id: 'scn_01JEXPORT',
    project: { project_id: 'prj_acme', name: 'Acme Shop', target: 'https://shop.example.com' },
    status: 'completed',
    created_at: '2025-02-01T10:00:00.000Z',
    completed_at: '2025-02-01T10:02:30.000Z',
    duration_seconds: 150,
    risk_score: 78,
    risk_level: 'high',
    detectors: [
      { name: 'security', status: 'completed', risk_score: 90, risk_level: 'critical', summary: { total: 3, critical: 1, high: 1, medium: 0, low: 0, info: 1 } },
      { name: 'accessibility', status: 'completed', risk_score: 40, risk_level: 'medium', summary: { total: 2, critical: 0, high: 0, medium: 2, low: 0, info: 0 } },
      { name: 'ai_readiness', status: 'completed', risk_score: 15, risk_level: 'low', summary: { total: 2, critical: 0, high: 0, medium: 0, low: 1, info: 1 } },
    ],
    findings: [
      finding({
        id: 'fnd_hsts',
        detector: 'security',
        rule_id: 'security.missing-hsts',
        severity: 'high',
        title: 'Strict-Transport-Security header missing',
        // A header finding: no element, so no line or column.
        cvss_score: 7.4,
        cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
        references: ['https://owasp.org/www-project-secure-headers/', 'https://www.rfc-editor.org/rfc/rfc6797'],
      }),
      finding({
        id: 'fnd_xss',
        detector: 'security',
        rule_id: 'security.reflected-xss',
        severity: 'critical',
        title: TOP_TITLE,
        location: { type: 'url', url: 'https://shop.example.com/search?q=x', selector: 'form#search input', line: 12, column: 5, end_line: 12, end_column: 40, snippet: '<input name="q" value="x">' },
        cvss_score: 9.6,
        first_seen_at: '2025-02-01T10:01:00.000Z',
      }),
      finding({
        id: 'fnd_banner',
        detector: 'security',
        rule_id: 'security.server-banner',
        severity: 'info',
        title: 'Server header reveals version',
      }),
      finding({
        id: 'fnd_alt',
        detector: 'accessibility',
        rule_id: 'accessibility.image-alt',
        severity: 'medium',
        title: TRICKY_TITLE,
        location: { type: 'url', url: 'https://shop.example.com/', selector: 'img.hero', line: 42, column: 7 },
        remediation: 'Add an alt attribute, e.g. alt="Summer sale, 20% off".',
        references: ['https://www.w3.org/WAI/WCAG22/Understanding/non-text-content'],
      }),
      finding({
        id: 'fnd_alt_fixed',
        detector: 'accessibility',
        rule_id: 'accessibility.image-alt',
        severity: 'medium',
        title: 'Image has no alt text',
        status: 'fixed',
        location: { type: 'url', url: 'https://shop.example.com/about', selector: 'img', line: 3, column: 1 },
      }),
      finding({
        id: 'fnd_llms',
        detector: 'ai_readiness',
        rule_id: 'ai_readiness.missing-llms-txt',
        severity: 'low',
        title: 'No llms.txt',
        location: { type: 'url', url: 'https://shop.example.com/llms.txt' },
        regression: true,
      }),
      finding({
        id: 'fnd_ai_dismissed',
        detector: 'ai_readiness',
        rule_id: 'ai_readiness.ai-disclosure',
        severity: 'info',
        title: 'No AI disclosure',
        status: 'dismissed',
      }),
    ],
    rules: [
      { rule_id: 'security.missing-hsts', detector: 'security', name: 'Missing HSTS', short_description: 'HSTS header missing', full_description: 'The site does not send Strict-Transport-Security.', help: 'Send Strict-Transport-Security: max-age=31536000.', help_url: 'https://owasp.org/www-project-secure-headers/', default_severity: 'high' },
      { rule_id: 'security.reflected-xss', detector: 'security', name: 'Reflected XSS', short_description: 'Reflected XSS', full_description: 'Input is reflected unescaped.', help: 'Escape output.', default_severity: 'critical' },
      // No finding in this scan: its security-severity comes from its default severity.
      { rule_id: 'security.missing-csp', detector: 'security', name: 'Missing CSP', short_description: 'No Content-Security-Policy', full_description: 'No CSP header.', help: 'Send a CSP.', default_severity: 'medium' },
      { rule_id: 'accessibility.image-alt', detector: 'accessibility', name: 'Image alt', short_description: 'Images need alt text', full_description: 'WCAG 1.1.1.', help: 'Add alt.', help_url: 'https://www.w3.org/WAI/WCAG22/Understanding/non-text-content', default_severity: 'medium' },
      { rule_id: 'ai_readiness.missing-llms-txt', detector: 'ai_readiness', name: 'llms.txt', short_description: 'No llms.txt', full_description: 'No llms.txt file.', help: 'Publish /llms.txt.', default_severity: 'low' },
      // security.server-banner and ai_readiness.ai-disclosure are deliberately absent.
    ],
    tool: { name: 'Gatehouse', version: '0.1.0', information_uri: 'https://gatehouse.example.com' },
  };
}

/** The official schema is draft-04 (`id`, draft-04 `$schema`); its keywords mean the same under Ajv's draft-07, so only those two are dropped. */
function sarifValidator() {
  const { $schema: _meta, id: _id, ...schema } = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: { driver: { rules: { id: string; properties: { tags: string[]; 'security-severity'?: string } }[] } };
    invocations: { executionSuccessful: boolean; toolExecutionNotifications?: unknown[] }[];
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      baselineState: string;
      partialFingerprints: Record<string, string>;
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[];
      properties: Record<string, unknown>;
    }[];
  }[];
}

function pdfToText(pdf: Buffer): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('pdftotext', ['-', '-']);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise(Buffer.concat(out).toString('utf8')) : reject(new Error(`pdftotext exited ${code}: ${Buffer.concat(err).toString()}`)),
    );
    child.stdin.end(pdf);
  });
}

describe('SARIF export', () => {
  it('validates against the official SARIF 2.1.0 schema', () => {
    const validate = sarifValidator();

    const log = toSarif(fixture());

    const valid = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(log).toMatchObject({ version: '2.1.0', $schema: expect.stringContaining('sarif-schema-2.1.0.json') });
  });

  it('reports open findings only, each with a rule, a fingerprint and a region', () => {
    const report = fixture();

    const run = (toSarif(report) as unknown as SarifLog).runs[0];

    const open = report.findings.filter((f) => f.status === 'open');
    expect(run.results.map((r) => r.properties.finding_id)).toEqual(open.map((f) => f.id));
    for (const [i, result] of run.results.entries()) {
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
      expect(result.partialFingerprints).toEqual({ [FINGERPRINT_KEY]: open[i].fingerprint });
      expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe(open[i].location.url);
      expect(result.locations[0].physicalLocation.region.startLine).toBeGreaterThanOrEqual(1);
      expect(result.properties).toMatchObject({ severity: open[i].severity, detector: open[i].detector, cvss_score: open[i].cvss_score });
    }
  });

  it('points a finding without a line at line 1 and keeps real positions', () => {
    const run = (toSarif(fixture()) as unknown as SarifLog).runs[0];

    const region = (id: string) => run.results.find((r) => r.properties.finding_id === id)!.locations[0].physicalLocation.region;

    expect(region('fnd_hsts')).toEqual({ startLine: 1, startColumn: 1 });
    expect(region('fnd_xss')).toMatchObject({ startLine: 12, startColumn: 5, endLine: 12, endColumn: 40 });
    expect(region('fnd_alt')).toMatchObject({ startLine: 42, startColumn: 7 });
  });

  it('maps severities to levels and sets the baseline state', () => {
    const run = (toSarif(fixture()) as unknown as SarifLog).runs[0];

    const byId = Object.fromEntries(run.results.map((r) => [r.properties.finding_id, r]));

    expect([byId.fnd_xss.level, byId.fnd_hsts.level, byId.fnd_banner.level, byId.fnd_alt.level, byId.fnd_llms.level]).toEqual([
      'error',
      'error',
      'note',
      'warning',
      'note',
    ]);
    expect(byId.fnd_xss.baselineState).toBe('new'); // first seen during this scan
    expect(byId.fnd_llms.baselineState).toBe('new'); // regression
    expect(byId.fnd_hsts.baselineState).toBe('unchanged');
  });

  it('puts security-severity and the security tag on security rules only', () => {
    const rules = (toSarif(fixture()) as unknown as SarifLog).runs[0].tool.driver.rules;

    const props = Object.fromEntries(rules.map((r) => [r.id, r.properties]));

    expect(props['security.reflected-xss']['security-severity']).toBe('9.6');
    expect(props['security.missing-hsts']['security-severity']).toBe('7.4');
    expect(props['security.missing-csp']['security-severity']).toBe('5.5');
    for (const id of ['security.reflected-xss', 'security.missing-hsts', 'security.missing-csp']) {
      expect(props[id].tags).toContain('security');
    }
    expect(props['accessibility.image-alt']['security-severity']).toBeUndefined();
    expect(props['accessibility.image-alt'].tags).toEqual(['accessibility']);
    // A rule missing from report.rules is described from its finding; info has no security score.
    expect(props['security.server-banner']).toBeDefined();
    expect(props['security.server-banner']['security-severity']).toBeUndefined();
  });

  it('records a failed detector as an unsuccessful invocation and still validates', () => {
    const report = fixture();
    report.detectors[2] = { ...report.detectors[2], status: 'failed', error: 'robots.txt fetch timed out' };

    const log = toSarif(report);

    const invocation = (log as unknown as SarifLog).runs[0].invocations[0];
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications).toHaveLength(1);
    expect(sarifValidator()(log)).toBe(true);
  });
});

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

describe('PDF export', () => {
  it('renders a readable report with the project, risk, detectors and top finding', async () => {
    const pdf = await toPdf(fixture());

    const text = (await pdfToText(pdf)).replace(/\s+/g, ' ');

    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(text).toContain('Acme Shop');
    expect(text).toContain('https://shop.example.com');
    expect(text).toContain('Overall risk: high');
    for (const name of ['security', 'accessibility', 'ai_readiness']) expect(text).toContain(`Detector ${name}`);
    expect(text).toContain(`1. ${TOP_TITLE}`);
  });

  it('paginates many findings and renders text the standard fonts cannot show', async () => {
    const report = fixture();
    const many = Array.from({ length: 150 }, (_, i) =>
      finding({
        id: `fnd_many_${i}`,
        detector: 'accessibility',
        rule_id: `accessibility.rule-${i % 7}`,
        severity: 'low',
        title: `Contrast issue ${i} ✓ 日本語`,
        location: { type: 'url', url: `https://shop.example.com/page/${i}/${'segment/'.repeat(i % 5)}` },
      }),
    );
    report.findings.push(...many);

    const text = await pdfToText(await toPdf(report));

    const pages = text.split('\f').filter((page) => page.trim()).length;
    expect(pages).toBeGreaterThan(3);
    expect(text).toContain(`page ${pages} of ${pages}`);
    expect(text).toContain('page/149/');
  });

  it('gives the same document for the same report', async () => {
    const [a, b] = await Promise.all([toPdf(fixture()), toPdf(fixture())]);

    expect(a.equals(b)).toBe(true);
  });
});

describe('exportScan', () => {
  it.each([
    ['json', 'application/json', 'gatehouse-scan-scn_01JEXPORT.json'],
    ['sarif', 'application/sarif+json', 'gatehouse-scan-scn_01JEXPORT.sarif'],
    ['csv', 'text/csv; charset=utf-8', 'gatehouse-scan-scn_01JEXPORT.csv'],
    ['pdf', 'application/pdf', 'gatehouse-scan-scn_01JEXPORT.pdf'],
  ] as const)('exports %s as %s named %s', async (format, contentType, fileName) => {
    const exported = await exportScan(fixture(), format);

    expect(exported.contentType).toBe(contentType);
    expect(exported.fileName).toBe(fileName);
    expect(exported.body.length).toBeGreaterThan(0);
  });

  it('exports the full report as JSON and the SARIF log as JSON', async () => {
    const report = fixture();

    const [json, sarif] = await Promise.all([exportScan(report, 'json'), exportScan(report, 'sarif')]);

    expect(JSON.parse(json.body.toString('utf8'))).toEqual(report);
    expect(JSON.parse(sarif.body.toString('utf8'))).toEqual(toSarif(report));
  });

  it('keeps the file name header-safe', async () => {
    const report = { ...fixture(), scan_id: 'scn_1"\r\n../x' };

    const exported = await exportScan(report, 'csv');

    expect(exported.fileName).toBe('gatehouse-scan-scn_1x.csv');
  });
});
