import { comparedBaselineBranch, type Baseline } from './baseline.ts';
import { ApiError, Interrupted, ScanNotCompleted, UsageError } from './errors.ts';
import type { GateResult, Threshold } from './gate.ts';
import type { ProgressEvent } from './poller.ts';
import { SEVERITIES, type DetectorResult, type Finding, type Scan } from './wire.ts';

/** What the run found out, for the summary. */
export interface ScanReport {
  scan: Scan;
  branch?: string;
  /** `--baseline-branch`, or the CI's target branch. */
  baselineBranch?: string;
  failOn: Threshold;
  newOnly: boolean;
  /** With `--new-only`: the scan compared with, or null when neither the baseline branch nor the branch had one. */
  baseline?: Baseline | null;
  gate: GateResult;
  sarifPath?: string;
  dashboardUrl?: string;
}

/** Failing findings listed in the text summary; the rest are counted. */
const LISTED = 20;

/** `[1:05]`: minutes and seconds since the run began, as CI logs are read. */
export function elapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `[${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}]`;
}

/** The stderr lines for one step of the scan. */
export function progressLines(event: ProgressEvent, elapsedMs: number): string[] {
  const at = elapsed(elapsedMs);
  switch (event.type) {
    case 'status':
      return [`${at} ${event.status}${event.status === 'running' ? `: ${event.detectors.join(', ')}` : ''}`];
    case 'detector_done':
      return [`${at} ${event.detector} done`];
    case 'ended': {
      // A completed or failed scan has a result per detector; a cancelled one has none.
      const results = Array.isArray(event.scan.detectors) ? [] : (Object.entries(event.scan.detectors) as [string, DetectorResult][]);
      const lines = results.map(([name, result]) =>
        result.status === 'failed' ? `${at} ${name} failed: ${result.error ?? 'no reason given'}` : `${at} ${name}: ${plural(result.summary.total, 'finding')}, risk ${result.risk_score}/100 (${result.risk_level})`,
      );
      const risk = event.scan.status === 'completed' ? `: risk ${event.scan.risk_score ?? 0}/100 (${event.scan.risk_level ?? 'low'})` : '';
      return [...lines, `${at} ${event.scan.status}${risk}`];
    }
  }
}

/** The human summary on stdout. */
export function summaryText(report: ScanReport): string {
  const { scan, gate } = report;
  const lines = [`Scan ${scan.scan_id} ${scan.status} in ${scan.duration_seconds ?? '?'} s: risk ${scan.risk_score ?? 0}/100 (${scan.risk_level ?? 'low'})`];
  const counts = SEVERITIES.map((severity) => `${gate.open[severity]} ${severity}`).join(', ');
  lines.push(`Open findings: ${counts}${gate.dismissed ? ` (${gate.dismissed} dismissed, not counted)` : ''}`);
  if (report.newOnly) lines.push(...comparisonLines(report));
  lines.push(gateLine(report));
  for (const finding of gate.failing.slice(0, LISTED)) lines.push(`  ${findingLine(finding)}`);
  if (gate.failing.length > LISTED) lines.push(`  ... and ${gate.failing.length - LISTED} more`);
  if (report.sarifPath) lines.push(`SARIF: ${report.sarifPath}`);
  lines.push(report.dashboardUrl ? `Scan: ${scanLink(report.dashboardUrl, scan.scan_id)}` : `Scan id: ${scan.scan_id}`);
  return `${lines.join('\n')}\n`;
}

/** Which scan `--new-only` compared with (its id and branch), and why that one. */
function comparisonLines({ baseline, branch, baselineBranch: given, gate }: ScanReport): string[] {
  const count = gate.newFindings?.length ?? 0;
  const baselineBranch = comparedBaselineBranch({ branch, baselineBranch: given });
  if (baseline?.reason === 'baseline_branch') return [`New since ${baseline.scan.scan_id} (the last completed scan of the baseline branch ${baseline.branch}, which branch ${branch} is compared with): ${count}`];
  if (baseline && baselineBranch === undefined) return [`New since ${baseline.scan.scan_id} (the last completed scan of this branch, ${branch}; there is no baseline branch): ${count}`];
  if (baseline) {
    return [
      `New since ${baseline.scan.scan_id} (the last completed scan of this branch, ${branch}: the baseline branch ${baselineBranch} has no completed scan before this one): ${count}`,
      `Note: a finding an earlier scan of ${branch} already had does not count as new, though ${baselineBranch} may not have it; scan ${baselineBranch} too (on push) so that ${branch} is compared with it.`,
    ];
  }
  if (baselineBranch === undefined) return [`No earlier completed scan of branch ${branch}${given === undefined ? ', and no baseline branch (--baseline-branch)' : ''}: every finding counts as new.`];
  return [`No earlier completed scan of the baseline branch ${baselineBranch} or of branch ${branch}: every finding counts as new.`];
}

function gateLine({ failOn, newOnly, gate }: ScanReport): string {
  if (failOn === 'none') return 'Gate: --fail-on none, findings never fail the build: passed';
  const scope = `${failOn}${failOn === 'info' ? '' : ' and above'}${newOnly ? ', new findings only' : ''}`;
  if (gate.passed) return `Gate (${scope}): passed${newOnly && gate.atThreshold.length ? ` (${gate.atThreshold.length} at or above ${failOn}, none new)` : ''}`;
  return `Gate (${scope}): FAILED, ${plural(gate.failing.length, 'finding')}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function findingLine(finding: Finding): string {
  return [finding.severity.padEnd(8), finding.rule_id, finding.title, finding.location?.url ?? ''].join('  ').trimEnd();
}

function scanLink(dashboardUrl: string, scanId: string): string {
  return `${dashboardUrl.replace(/\/+$/, '')}/scans/${encodeURIComponent(scanId)}`;
}

/** The machine-readable summary (`--json`): one JSON document on stdout. */
export function summaryJson(report: ScanReport, exitCode: number): string {
  const { scan, gate } = report;
  const failedDetectors = Array.isArray(scan.detectors) ? [] : Object.entries(scan.detectors).filter(([, result]) => result?.status === 'failed').map(([name]) => name);
  const summary = {
    scan_id: scan.scan_id,
    project_id: scan.project_id,
    status: scan.status,
    risk_score: scan.risk_score ?? null,
    risk_level: scan.risk_level ?? null,
    branch: report.branch ?? null,
    baseline_branch: report.baselineBranch ?? null,
    fail_on: report.failOn,
    new_only: report.newOnly,
    open: gate.open,
    dismissed: gate.dismissed,
    at_or_above_threshold: gate.atThreshold.length,
    baseline_scan_id: report.baseline?.scan.scan_id ?? null,
    // Why that scan: `same_branch`, `baseline_branch`, or `none` (every finding is new); null without --new-only.
    baseline_reason: report.newOnly ? (report.baseline?.reason ?? 'none') : null,
    new: gate.newFindings?.length ?? null,
    failing: gate.failing.map((finding) => ({ id: finding.id, severity: finding.severity, rule_id: finding.rule_id, title: finding.title, url: finding.location?.url ?? null })),
    failed_detectors: failedDetectors,
    passed: gate.passed,
    exit_code: exitCode,
    sarif: report.sarifPath ?? null,
    ...(report.dashboardUrl ? { url: scanLink(report.dashboardUrl, scan.scan_id) } : {}),
  };
  return `${JSON.stringify(summary, null, 2)}\n`;
}

/** What stderr says when the run ends without a verdict. */
export function errorText(error: unknown): string {
  if (error instanceof UsageError) return `gatehouse: ${error.message}\n${error.help ? `Run '${error.help}' for the options.\n` : ''}`;
  if (error instanceof ApiError) {
    if (error.status === 0) return `gatehouse: the API could not be reached: ${error.detail}\n`;
    const fields = error.errors.map((item) => `\n  ${item.path}: ${item.message}`).join('');
    return `gatehouse: the API answered ${error.status} ${error.code}: ${error.title}: ${error.detail}${fields}\n`;
  }
  if (error instanceof ScanNotCompleted || error instanceof Interrupted) return `gatehouse: ${error.message}\n`;
  return `gatehouse: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
}
