import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atOrAbove, evaluateGate, THRESHOLDS, type Threshold } from '../../../sdk/cli/src/gate.ts';
import { SEVERITIES, type Finding } from '../../../sdk/cli/src/wire.ts';
import { finding } from './fake-api.ts';

const ids = (findings: Finding[]) => findings.map((item) => item.id);

describe('the gate', () => {
  const findings = [finding({ id: 'f1', severity: 'low' }), finding({ id: 'f2', severity: 'high' }), finding({ id: 'f3', severity: 'medium' }), finding({ id: 'f4', severity: 'critical', status: 'dismissed' })];

  it('fails on open findings at or above the threshold, most severe first', () => {
    const result = evaluateGate({ findings, failOn: 'medium' });

    expect(result.passed).toBe(false);
    expect(ids(result.failing)).toEqual(['f2', 'f3']);
    expect(result.open).toEqual({ critical: 0, high: 1, medium: 1, low: 1, info: 0 });
    expect(result.dismissed).toBe(1);
  });

  it('passes when every finding is below the threshold, or a dismissed one is the only one above', () => {
    expect(evaluateGate({ findings, failOn: 'critical' })).toMatchObject({ passed: true, failing: [], atThreshold: [] });
  });

  it('never fails with --fail-on none', () => {
    expect(evaluateGate({ findings, failOn: 'none' }).passed).toBe(true);
  });

  it('counts a finding another branch marked fixed: this scan saw it', () => {
    expect(evaluateGate({ findings: [finding({ id: 'f5', severity: 'high', status: 'fixed' })], failOn: 'high' }).passed).toBe(false);
  });

  it('with --new-only, fails only on findings the earlier scan did not have', () => {
    const known = evaluateGate({ findings, failOn: 'medium', baselineIds: new Set(['f1', 'f2', 'f3', 'f4']) });
    const oneNew = evaluateGate({ findings, failOn: 'medium', baselineIds: new Set(['f1', 'f2']) });

    expect(known).toMatchObject({ passed: true, failing: [], newFindings: [] });
    expect(ids(known.atThreshold)).toEqual(['f2', 'f3']);
    expect(oneNew.passed).toBe(false);
    expect(ids(oneNew.failing)).toEqual(['f3']);
  });

  it('with --new-only and no earlier scan, counts every finding as new', () => {
    const result = evaluateGate({ findings, failOn: 'medium', baselineIds: new Set() });

    expect(ids(result.failing)).toEqual(['f2', 'f3']);
    expect(ids(result.newFindings ?? [])).toEqual(['f1', 'f2', 'f3']);
  });

  it('orders the thresholds: each severity is at or above those after it', () => {
    expect(SEVERITIES.map((severity) => THRESHOLDS.filter((threshold) => atOrAbove(severity, threshold)))).toEqual([['critical', 'high', 'medium', 'low', 'info'], ['high', 'medium', 'low', 'info'], ['medium', 'low', 'info'], ['low', 'info'], ['info']]);
  });

  it('passes exactly when no open finding (new, with a baseline) is at or above the threshold', () => {
    const id = fc.constantFrom<string>('a', 'b', 'c', 'd', 'e', 'f');
    const spec = fc.record({ id, severity: fc.constantFrom(...SEVERITIES), status: fc.constantFrom('open' as const, 'fixed' as const, 'dismissed' as const) });
    fc.assert(
      fc.property(fc.uniqueArray(spec, { selector: (item) => item.id }), fc.constantFrom<Threshold>(...THRESHOLDS), fc.option(fc.uniqueArray(id), { nil: undefined }), (specs, failOn, baseline) => {
        const all = specs.map(finding);
        const baselineIds = baseline && new Set(baseline);
        const result = evaluateGate({ findings: all, failOn, baselineIds });

        const failing = all.filter((item) => item.status !== 'dismissed' && atOrAbove(item.severity, failOn) && !baselineIds?.has(item.id));
        expect(result.passed).toBe(failing.length === 0);
        expect(new Set(ids(result.failing))).toEqual(new Set(ids(failing)));
      }),
    );
  });
});
