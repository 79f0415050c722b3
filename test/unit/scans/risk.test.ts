import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEVERITIES, type Severity } from '#shared/scans/model';
import { assessRisk } from '#shared/scans/risk';

const findings = (severity: Severity, count: number, cvss = 0) => Array.from({ length: count }, () => ({ severity, cvss_score: cvss }));

describe('risk score and level', () => {
  it('scores the examples of docs/scans.md', () => {
    expect(assessRisk([...findings('medium', 2, 4.7), ...findings('low', 1, 3.1)])).toMatchObject({ risk_score: 13, risk_level: 'low' });
    expect(assessRisk(findings('medium', 30))).toMatchObject({ risk_score: 100, risk_level: 'high' });
    expect(assessRisk([...findings('high', 1, 7.5), ...findings('medium', 6, 5.3)])).toMatchObject({ risk_score: 54, risk_level: 'high' });
    expect(assessRisk(findings('critical', 1, 9.8))).toMatchObject({ risk_score: 50, risk_level: 'critical' });
  });

  it('lets many high findings reach critical, but many low ones only medium and info ones nothing', () => {
    expect(assessRisk(findings('high', 7))).toMatchObject({ risk_score: 70, risk_level: 'critical' });
    expect(assessRisk(findings('low', 100))).toMatchObject({ risk_score: 100, risk_level: 'medium' });
    expect(assessRisk(findings('info', 100))).toMatchObject({ risk_score: 0, risk_level: 'low' });
    expect(assessRisk([])).toMatchObject({ risk_score: 0, risk_level: 'low', summary: { total: 0 } });
  });

  it('never says critical without a critical or high finding, nor high without a medium or worse one', () => {
    const finding = fc.record({ severity: fc.constantFrom(...SEVERITIES), cvss_score: fc.double({ min: 0, max: 10, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 200 }), (list) => {
        const { risk_level, summary } = assessRisk(list);
        if (risk_level === 'critical') expect(summary.critical + summary.high).toBeGreaterThan(0);
        if (risk_level === 'high') expect(summary.critical + summary.high + summary.medium).toBeGreaterThan(0);
        if (summary.critical > 0) expect(risk_level).toBe('critical');
      }),
    );
  });
});
