import type { ReadinessRule } from './readiness-rules';
import type { ClassifiedSystem } from './risk-classification';

/** One rule checked against one subject: the organisation or one system. */
export interface RuleOutcome {
  rule: ReadinessRule;
  /** `null` for an organisation-level rule, else the system id. */
  system_id: string | null;
  satisfied: boolean;
  evidence_missing: string[];
}

/**
 * Evaluates rules: an organisation rule once against organisation evidence, a system rule once
 * per system it applies to against that system's evidence (organisation evidence included).
 * Output order follows the rule order, then the system order, so it is stable for equal input.
 */
export function evaluateRules(
  rules: readonly ReadinessRule[],
  organisationEvidence: ReadonlySet<string>,
  systems: readonly ClassifiedSystem[],
): RuleOutcome[] {
  const outcomes: RuleOutcome[] = [];
  for (const rule of rules) {
    if (rule.scope === 'organisation') {
      outcomes.push(outcome(rule, null, organisationEvidence));
      continue;
    }
    for (const system of systems) {
      if (rule.appliesTo(system)) outcomes.push(outcome(rule, system.id, system.evidence));
    }
  }
  return outcomes;
}

function outcome(rule: ReadinessRule, systemId: string | null, held: ReadonlySet<string>): RuleOutcome {
  const missing = rule.evidence.filter((id) => !held.has(id));
  return { rule, system_id: systemId, satisfied: missing.length === 0, evidence_missing: missing };
}
