import type { AuditReport, Gap } from './audit-report';
import { readinessDomains, severities, type ReadinessDomain, type Severity } from './readiness-rules';
import type { ClassifiedSystem, RiskClass } from './risk-classification';

export type ReadinessLevel = 'ready' | 'partially_ready' | 'not_ready';

/** `data` of an `ai_readiness.gap_summary` artifact: what an executive reads in a minute. */
export interface GapSummary {
  framework: 'eu_ai_act';
  scope: 'full' | 'quick';
  headline: string;
  eu_ai_act_score: number;
  readiness_level: ReadinessLevel;
  counts_by_severity: Record<Severity, number>;
  systems: { id: string; name: string; risk_class: RiskClass; risk_basis: string; gaps: number }[];
  top_gaps: { rule_id: string; title: string; severity: Severity; article: string; systems: string[] }[];
  weakest_domains: { domain: ReadinessDomain; score: number }[];
}

const topGapCount = 5;
const weakestDomainCount = 3;

/** Ready needs a high score and no critical gap: one critical gap can block market access. */
export function readinessLevel(score: number, critical: number): ReadinessLevel {
  if (score >= 80 && critical === 0) return 'ready';
  if (score >= 50) return 'partially_ready';
  return 'not_ready';
}

export function buildGapSummary(
  report: AuditReport,
  gaps: readonly Gap[],
  systems: readonly ClassifiedSystem[],
  scope: 'full' | 'quick',
): GapSummary {
  const counts = Object.fromEntries(severities.map((s) => [s, 0])) as Record<Severity, number>;
  for (const r of report.recommendations) counts[r.severity] += 1;
  const highRisk = systems.filter((s) => s.risk_class === 'high').length;
  const level = readinessLevel(report.eu_ai_act_score, report.critical);
  const headline =
    `EU AI Act readiness ${report.eu_ai_act_score}/100 (${level.replace('_', ' ')}): ` +
    `${report.gaps_found} ${report.gaps_found === 1 ? 'gap' : 'gaps'}, ${report.critical} critical, ` +
    `across ${systems.length} AI ${systems.length === 1 ? 'system' : 'systems'} (${highRisk} high-risk).`;
  const weakest = readinessDomains
    .map((domain, index) => ({ domain, score: report.domains[domain], index }))
    .filter((d) => d.score < 100)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, weakestDomainCount)
    .map(({ domain, score }) => ({ domain, score }));
  return {
    framework: 'eu_ai_act',
    scope,
    headline,
    eu_ai_act_score: report.eu_ai_act_score,
    readiness_level: level,
    counts_by_severity: counts,
    systems: systems.map((s) => ({
      id: s.id,
      name: s.name,
      risk_class: s.risk_class,
      risk_basis: s.risk_basis,
      gaps: gaps.filter((g) => g.system_ids.includes(s.id)).length,
    })),
    top_gaps: gaps.slice(0, topGapCount).map((g) => ({
      rule_id: g.rule.id,
      title: g.rule.title,
      severity: g.rule.severity,
      article: g.rule.article,
      systems: g.system_ids,
    })),
    weakest_domains: weakest,
  };
}
