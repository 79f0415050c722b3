import type { Verdict } from '#shared/preflight/finding';
import type { PreflightReport } from '#shared/preflight/preflight';

const LABELS: Record<Verdict, string> = { blocker: 'BLOCKER', request: 'REQUEST', unchecked: 'UNCHECKED', note: 'NOTE', pass: 'OK' };

/** The report for a person: one paragraph per check, its action and command indented beneath. */
export function reportText(report: PreflightReport): string {
  const lines = [`Gatehouse preflight for ${report.region}`, ''];
  for (const finding of report.findings) {
    lines.push(`${LABELS[finding.verdict].padEnd(9)} ${finding.check}: ${finding.summary}`);
    if (finding.action) lines.push(`          ${finding.action}`);
    if (finding.command) lines.push(`          $ ${finding.command}`);
  }
  const count = (verdict: Verdict) => report.findings.filter((finding) => finding.verdict === verdict).length;
  lines.push('', `${count('blocker')} blocker(s), ${count('request')} request(s), ${count('unchecked')} unchecked: ${report.exitCode === 0 ? 'ready to deploy' : report.exitCode === 1 ? 'deal with the blockers before deploying' : 'some checks could not run'}.`);
  return lines.join('\n');
}
