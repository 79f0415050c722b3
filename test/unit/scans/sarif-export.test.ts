import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { FINGERPRINT_KEY, toSarif } from '#shared/scans/exports/sarif';
import { SARIF_SCHEMA_PATH } from '../../support/sarif-schema';
import { fixture } from './report-fixture';

/** The official schema is draft-04 (`id`, draft-04 `$schema`); its keywords mean the same under Ajv's draft-07, so only those two are dropped. */
function sarifValidator() {
  const { $schema: _meta, id: _id, ...schema } = JSON.parse(readFileSync(SARIF_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
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
