import type { RuleOutcome } from './evaluate-rules';
import {
  readinessDomains,
  severities,
  severityWeight,
  type ReadinessDomain,
  type ReadinessRule,
  type Severity,
} from './readiness-rules';

export interface Recommendation {
  gap: string;
  severity: Severity;
  evidence_missing: string[];
  remediation: string;
}

/** `data` of an `ai_readiness.audit_report` artifact; the spec fixes these five keys. */
export interface AuditReport {
  gaps_found: number;
  critical: number;
  eu_ai_act_score: number;
  domains: Record<ReadinessDomain, number>;
  recommendations: Recommendation[];
}

/** One failing rule with every subject it fails for; a report lists one recommendation per gap. */
export interface Gap {
  rule: ReadinessRule;
  organisation: boolean;
  system_ids: string[];
  evidence_missing: string[];
}

/**
 * 100 × satisfied weight / applicable weight, rounded; 100 when nothing applies, because there
 * is nothing to be unready for.
 */
export function scoreOutcomes(outcomes: readonly RuleOutcome[]): number {
  let applicable = 0;
  let satisfied = 0;
  for (const o of outcomes) {
    const weight = severityWeight[o.rule.severity];
    applicable += weight;
    if (o.satisfied) satisfied += weight;
  }
  return applicable === 0 ? 100 : Math.round((100 * satisfied) / applicable);
}

/** Groups failing outcomes per rule, ordered by severity (critical first) then rule id. */
export function collectGaps(outcomes: readonly RuleOutcome[]): Gap[] {
  const byRule = new Map<string, Gap>();
  for (const o of outcomes) {
    if (o.satisfied) continue;
    let gap = byRule.get(o.rule.id);
    if (!gap) {
      gap = { rule: o.rule, organisation: false, system_ids: [], evidence_missing: [] };
      byRule.set(o.rule.id, gap);
    }
    if (o.system_id === null) gap.organisation = true;
    else gap.system_ids.push(o.system_id);
    for (const id of o.evidence_missing) if (!gap.evidence_missing.includes(id)) gap.evidence_missing.push(id);
  }
  const rank = (s: Severity): number => severities.indexOf(s);
  return [...byRule.values()].sort(
    (a, b) => rank(a.rule.severity) - rank(b.rule.severity) || compareIds(a.rule.id, b.rule.id),
  );
}

/** Plain code-unit comparison: locale-independent, so the order never depends on the host. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function describeGap(gap: Gap): string {
  const where = gap.organisation ? 'organisation level' : `systems: ${gap.system_ids.join(', ')}`;
  return `${gap.rule.id} ${gap.rule.title} (${gap.rule.article}); ${where}`;
}

/** Builds the audit report from every evaluated outcome. */
export function buildAuditReport(outcomes: readonly RuleOutcome[]): AuditReport {
  const domains = {} as Record<ReadinessDomain, number>;
  for (const domain of readinessDomains) {
    domains[domain] = scoreOutcomes(outcomes.filter((o) => o.rule.domain === domain));
  }
  const gaps = collectGaps(outcomes);
  const recommendations = gaps.map((gap) => ({
    gap: describeGap(gap),
    severity: gap.rule.severity,
    evidence_missing: gap.evidence_missing,
    remediation: gap.rule.remediation,
  }));
  return {
    gaps_found: recommendations.length,
    critical: recommendations.filter((r) => r.severity === 'critical').length,
    eu_ai_act_score: scoreOutcomes(outcomes),
    domains,
    recommendations,
  };
}
