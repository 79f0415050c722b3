import { SEVERITIES, type Finding, type Severity, type SeverityCounts } from './wire.ts';

/** `--fail-on`: the least severity that fails the build, or `none` to never fail on findings. */
export type Threshold = Severity | 'none';
export const THRESHOLDS: readonly Threshold[] = [...SEVERITIES, 'none'];

const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

export function atOrAbove(severity: Severity, threshold: Threshold): boolean {
  return threshold !== 'none' && RANK[severity] >= RANK[threshold];
}

export interface GateInput {
  /** Every finding of the scan. */
  findings: Finding[];
  failOn: Threshold;
  /**
   * With `--new-only`: the ids of the findings of the scan compared with (empty when there was
   * none, so every finding is new). Without it, undefined: every finding counts.
   */
  baselineIds?: ReadonlySet<string>;
}

export interface GateResult {
  /** The findings that count, by severity: all but the dismissed ones. */
  open: SeverityCounts;
  dismissed: number;
  /** Open findings at or above the threshold, new or not. */
  atThreshold: Finding[];
  /** With `--new-only`: the open findings the baseline did not have. */
  newFindings?: Finding[];
  /** The findings that fail the build: `atThreshold`, or only its new ones with `--new-only`. Most severe first. */
  failing: Finding[];
  passed: boolean;
}

/**
 * The build's verdict on a completed scan. A finding counts unless someone dismissed it: its
 * status may also read `fixed` when a later scan of another branch no longer saw it, yet this scan did.
 */
export function evaluateGate({ findings, failOn, baselineIds }: GateInput): GateResult {
  const open = findings.filter((finding) => finding.status !== 'dismissed');
  const counts = Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])) as SeverityCounts;
  for (const finding of open) counts[finding.severity] += 1;
  const atThreshold = open.filter((finding) => atOrAbove(finding.severity, failOn)).sort((a, b) => RANK[b.severity] - RANK[a.severity]);
  const newFindings = baselineIds && open.filter((finding) => !baselineIds.has(finding.id));
  const failing = baselineIds ? atThreshold.filter((finding) => !baselineIds.has(finding.id)) : atThreshold;
  return { open: counts, dismissed: findings.length - open.length, atThreshold, ...(newFindings ? { newFindings } : {}), failing, passed: failing.length === 0 };
}
