import type { DetectedFinding, Severity } from '#shared/scans/model';

/**
 * Risk score, the same formula for a detector and for a whole scan (docs/scans.md):
 * each finding weighs its severity weight times (1 + CVSS/10); the score is the sum, capped at
 * 100 and rounded. The level follows the score, within what the findings say: any critical
 * finding makes it critical, and a score alone lifts it at most one level above the worst
 * finding (no `critical` without a critical or high finding, no `high` without a medium one).
 */
export const SEVERITY_WEIGHTS: Record<Severity, number> = { critical: 25, high: 10, medium: 4, low: 1, info: 0 };

export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

export interface SeveritySummary {
  total: number;
  critical: number;
  high: number;
  medium: number;
  low: number;
  info: number;
}

export function summarize(findings: Pick<DetectedFinding, 'severity'>[]): SeveritySummary {
  const summary: SeveritySummary = { total: findings.length, critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const finding of findings) summary[finding.severity]++;
  return summary;
}

export function riskScore(findings: Pick<DetectedFinding, 'severity' | 'cvss_score'>[]): number {
  const sum = findings.reduce((total, finding) => total + SEVERITY_WEIGHTS[finding.severity] * (1 + Math.min(10, Math.max(0, finding.cvss_score)) / 10), 0);
  return Math.min(100, Math.round(sum));
}

const LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high', 'critical'];

function levelOfScore(score: number): RiskLevel {
  if (score >= 70) return 'critical';
  if (score >= 40) return 'high';
  if (score >= 15) return 'medium';
  return 'low';
}

/** The highest level the findings support: one above the worst finding's severity. */
function ceilingOf(summary: Pick<SeveritySummary, 'critical' | 'high' | 'medium' | 'low'>): RiskLevel {
  if (summary.critical > 0 || summary.high > 0) return 'critical';
  if (summary.medium > 0) return 'high';
  if (summary.low > 0) return 'medium';
  return 'low';
}

export function riskLevel(score: number, summary: Pick<SeveritySummary, 'critical' | 'high' | 'medium' | 'low'>): RiskLevel {
  if (summary.critical > 0) return 'critical';
  const byScore = LEVELS.indexOf(levelOfScore(score));
  return LEVELS[Math.min(byScore, LEVELS.indexOf(ceilingOf(summary)))];
}

export function assessRisk(findings: Pick<DetectedFinding, 'severity' | 'cvss_score'>[]) {
  const summary = summarize(findings);
  const score = riskScore(findings);
  return { summary, risk_score: score, risk_level: riskLevel(score, summary) };
}
