import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, scanEnded, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { pdfText } from '../support/pdf-text';
import { startTestSite, type TestSite } from '../support/test-site-server';
import { sarifSchema } from '../support/sarif-schema';

let runtime: TestRuntime;
let site: TestSite;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
let projectId: string;
let firstScan: any;

const finishedScan = (scanId: string) => scanEnded(a, scanId);

async function allFindings(scanId: string, query = '') {
  const ids: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const { body }: { body: any } = await a('GET', `/scans/${scanId}/findings?limit=7${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    ids.push(...body.data);
    cursor = body.next_cursor;
    if (!cursor) return { findings: ids, total: body.total };
  }
  throw new Error('paging did not end');
}

async function download(path: string) {
  const response = await fetch(`${runtime.baseUrl}${path}`, { headers: { Authorization: `Bearer ${runtime.keys.a}` }, redirect: 'follow', signal: AbortSignal.timeout(30_000) });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('projects and scans end to end against a bundled test site', () => {
  beforeAll(async () => {
    site = await startTestSite();
    runtime = await startTestRuntime('scans');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    const created = await a('POST', '/projects', { name: 'Test site', target: site.url, crawl: { max_pages: 10, timeout_seconds: 2 } });
    expect(created.status).toBe(201);
    projectId = created.body.project_id;
    const scan = await a('POST', `/projects/${projectId}/scans`, { detector_options: { accessibility: { wcag_level: 'AA' } }, metadata: { git_sha: 'abc123', branch: 'main', triggered_by: 'test' } });
    expect(scan.status).toBe(201);
    expect(scan.body).toMatchObject({ status: 'pending', detectors: ['accessibility', 'security', 'ai_readiness'], estimated_duration_seconds: expect.any(Number) });
    firstScan = await finishedScan(scan.body.scan_id);
  }, 180_000);

  afterAll(async () => {
    await runtime?.stop();
    await site?.close();
  });

  it('completes with per-detector results whose counts agree with the findings', async () => {
    expect(firstScan).toMatchObject({ status: 'completed', risk_score: expect.any(Number), risk_level: expect.stringMatching(/low|medium|high|critical/), completed_at: expect.any(String), duration_seconds: expect.any(Number) });
    for (const detector of ['accessibility', 'security', 'ai_readiness']) {
      const result = firstScan.detectors[detector];
      expect(result.status, detector).toBe('completed');
      expect(result.summary.total, detector).toBeGreaterThan(0);
      const { findings, total } = await allFindings(firstScan.scan_id, `&detector=${detector}`);
      expect(total).toBe(result.summary.total);
      expect(findings).toHaveLength(result.summary.total);
      for (const severity of ['critical', 'high', 'medium', 'low', 'info']) expect(findings.filter((finding) => finding.severity === severity).length).toBe(result.summary[severity]);
    }
  });

  it('finds the known problems of every detector, with WCAG references, CVSS and locations', async () => {
    const { findings } = await allFindings(firstScan.scan_id);
    const rules = new Set(findings.map((finding: { rule_id: string }) => finding.rule_id));
    expect(rules).toContain('accessibility.image-alt');
    const imageAlt = findings.find((finding: any) => finding.rule_id === 'accessibility.image-alt');
    expect(imageAlt.references.some((url: string) => url.includes('w3.org/WAI/WCAG'))).toBe(true);
    expect(imageAlt.location).toMatchObject({ type: 'url', url: expect.stringContaining(site.url.replace(/\/$/, '')), line: expect.any(Number), column: expect.any(Number) });
    const security = findings.filter((finding: any) => finding.detector === 'security');
    expect(security.length).toBeGreaterThan(3);
    expect(security.every((finding: any) => finding.cvss_score > 0 && /^CVSS:3\.1\//.test(finding.cvss_vector))).toBe(true);
    expect([...rules].some((rule) => String(rule).startsWith('ai_readiness.'))).toBe(true);
    for (const finding of findings) expect(finding).toMatchObject({ id: expect.stringMatching(/^fnd_/), first_seen_at: firstScan.created_at, status: 'open', remediation: expect.any(String) });
  });

  it('pages findings without gaps or duplicates and filters by severity', async () => {
    const { findings, total } = await allFindings(firstScan.scan_id);
    expect(new Set(findings.map((finding: any) => finding.id)).size).toBe(findings.length);
    expect(findings.length).toBe(total);
    const highOnly = await allFindings(firstScan.scan_id, '&severity=critical,high');
    expect(highOnly.findings.every((finding: any) => ['critical', 'high'].includes(finding.severity))).toBe(true);
    expect((await a('GET', `/scans/${firstScan.scan_id}/findings?limit=201`)).status).toBe(400);
    expect((await a('GET', `/scans/${firstScan.scan_id}/findings?severity=urgent`)).status).toBe(400);
  });

  it('exports SARIF valid against the official schema, CSV, JSON and a readable PDF', async () => {
    const sarif = await download(`/scans/${firstScan.scan_id}/export?format=sarif`);
    expect(sarif.response.headers.get('content-type')).toContain('application/sarif+json');
    expect(sarif.response.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.sarif"/);
    const schema = sarifSchema();
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const log = JSON.parse(sarif.bytes.toString('utf8'));
    expect(ajv.validate(schema, log), JSON.stringify(ajv.errors?.slice(0, 3))).toBe(true);
    expect(log.runs[0].results.length).toBeGreaterThan(0);
    for (const result of log.runs[0].results) expect(result.locations[0].physicalLocation.region.startLine).toBeGreaterThan(0);

    const csv = await download(`/scans/${firstScan.scan_id}/export?format=csv`);
    expect(csv.response.headers.get('content-type')).toContain('text/csv');
    const rows = parse(csv.bytes, { columns: true });
    expect(rows.length).toBe((await allFindings(firstScan.scan_id)).total);

    const pdf = await download(`/scans/${firstScan.scan_id}/export?format=pdf`);
    expect(pdf.response.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(pdf.bytes);
    expect(text).toContain('Test site');
    expect(text).toMatch(/accessibility/i);

    const json = await download(`/scans/${firstScan.scan_id}/export?format=json`);
    expect(JSON.parse(json.bytes.toString('utf8'))).toMatchObject({ scan_id: firstScan.scan_id });
    expect((await a('GET', `/scans/${firstScan.scan_id}/export?format=docx`)).status).toBe(400);
  });

  it('sends exports over the inline limit through the export bucket with a short-lived link', async () => {
    process.env.EXPORT_INLINE_LIMIT_BYTES = '100';
    try {
      const direct = await fetch(`${runtime.baseUrl}/scans/${firstScan.scan_id}/export?format=csv`, { headers: { Authorization: `Bearer ${runtime.keys.a}` }, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
      expect(direct.status).toBe(303);
      const location = direct.headers.get('location')!;
      expect(location).toContain('X-Amz-Expires=300');
      const followed = await fetch(location, { signal: AbortSignal.timeout(30_000) });
      expect(followed.status).toBe(200);
      expect(parse(Buffer.from(await followed.arrayBuffer()), { columns: true }).length).toBeGreaterThan(0);
    } finally {
      delete process.env.EXPORT_INLINE_LIMIT_BYTES;
    }
  });

  it('tracks findings across scans: fixed, dismissed stays dismissed, history newest first', async () => {
    const { findings } = await allFindings(firstScan.scan_id, '&detector=security');
    const toDismiss = findings[0];
    expect((await a('PATCH', `/findings/${toDismiss.id}`, { status: 'dismissed' })).status).toBe(400);
    const dismissed = await a('PATCH', `/findings/${toDismiss.id}`, { status: 'dismissed', dismissed_reason: 'accepted_risk', comment: 'Known' });
    expect(dismissed.body).toMatchObject({ status: 'dismissed', dismissed_reason: 'accepted_risk', comment: 'Known' });

    site.setVariant('fixed');
    const second = await a('POST', `/projects/${projectId}/scans`, {});
    expect(second.body.estimated_duration_seconds).toBe(Math.max(1, firstScan.duration_seconds));
    const secondScan = await finishedScan(second.body.scan_id);
    expect(secondScan.status).toBe('completed');

    const secondFindings = (await allFindings(secondScan.scan_id)).findings;
    const secondIds = new Set(secondFindings.map((finding: any) => finding.id));
    const firstFindings = (await allFindings(firstScan.scan_id)).findings;
    const gone = firstFindings.filter((finding: any) => !secondIds.has(finding.id) && finding.id !== toDismiss.id);
    expect(gone.length).toBeGreaterThan(0);
    expect((await a('GET', `/findings/${gone[0].id}`)).body.status).toBe('fixed');
    const stillDismissed = (await a('GET', `/findings/${toDismiss.id}`)).body;
    expect(stillDismissed.status).toBe('dismissed');

    const history = await a('GET', `/projects/${projectId}/findings/${encodeURIComponent(gone[0].rule_id)}/history`);
    expect(history.body.rule_id).toBe(gone[0].rule_id);
    expect(history.body.history.map((entry: any) => entry.scan_id)).toEqual([secondScan.scan_id, firstScan.scan_id]);
    expect(history.body.history[1]).toMatchObject({ status: 'open', count: expect.any(Number) });

    const list = await a('GET', `/projects/${projectId}/scans?limit=1`);
    expect(list.body).toMatchObject({ data: [{ scan_id: secondScan.scan_id, status: 'completed' }], has_more: true });
    const next = await a('GET', `/projects/${projectId}/scans?limit=1&cursor=${encodeURIComponent(list.body.next_cursor)}`);
    expect(next.body.data[0].scan_id).toBe(firstScan.scan_id);
    expect((await a('POST', `/scans/${secondScan.scan_id}/cancel`)).status).toBe(409);
  }, 180_000);

  it('marks a finding that was fixed and came back as open again and a regression', async () => {
    site.setVariant('broken');
    const third = await a('POST', `/projects/${projectId}/scans`, { detectors: ['security'] });
    const thirdScan = await finishedScan(third.body.scan_id);
    const findings = (await allFindings(thirdScan.scan_id)).findings;
    expect(findings.some((finding: any) => finding.regression === true && finding.status === 'open')).toBe(true);
  }, 120_000);

  it('cancels a running scan, and fails an unreachable target with a clear reason', async () => {
    const unreachable = await a('POST', '/projects', { name: 'Nobody home', target: 'http://127.0.0.1:9/' });
    const scan = await a('POST', `/projects/${unreachable.body.project_id}/scans`, { detectors: ['security'] });
    const failed = await finishedScan(scan.body.scan_id);
    expect(failed.status).toBe('failed');
    expect(failed.detectors.security.error).toMatch(/could not be scanned/);

    const toCancel = await a('POST', `/projects/${projectId}/scans`, {});
    const cancelled = await a('POST', `/scans/${toCancel.body.scan_id}/cancel`);
    expect([200, 409]).toContain(cancelled.status);
    if (cancelled.status === 200) expect(cancelled.body).toEqual({ scan_id: toCancel.body.scan_id, status: 'cancelled' });
  }, 120_000);

  it('validates projects and keeps them to their tenant', async () => {
    for (const target of ['ftp://example.com', 'not a url', 'http://169.254.169.254/']) {
      const response = await a('POST', '/projects', { name: 'Bad', target });
      expect(response.status, target).toBe(400);
      expect(response.body.errors[0].path).toBe('body.target');
    }
    expect((await a('POST', `/projects/${projectId}/scans`, { detectors: ['seo'] })).status).toBe(400);
    expect((await a('PATCH', `/projects/${projectId}`, { name: 'Renamed', crawl: { max_pages: 3 } })).body).toMatchObject({ name: 'Renamed', crawl: { max_pages: 3 } });
    expect((await b('GET', `/projects/${projectId}`)).status).toBe(404);
    expect((await b('GET', `/scans/${firstScan.scan_id}`)).status).toBe(404);
    expect((await b('GET', `/scans/${firstScan.scan_id}/findings`)).status).toBe(404);
    expect((await b('GET', `/scans/${firstScan.scan_id}/export?format=json`)).status).toBe(404);
    expect((await b('GET', '/projects')).body.data).toEqual([]);
  });
});
