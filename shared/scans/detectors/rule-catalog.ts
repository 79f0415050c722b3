import type { DetectorName, RuleDescription } from '#shared/scans/model';
import { accessibilityRules, wcagLevelFrom } from '#shared/scans/detectors/accessibility-rules';
import { AI_READINESS_RULES } from '#shared/scans/detectors/ai-readiness-rules';
import { describeRule } from '#shared/scans/detectors/rule-helpers';
import { SECURITY_RULES } from '#shared/scans/detectors/security-rules';

/**
 * The rules a detector run with `options` can report, from the rule tables alone: what exports
 * print about rules, without bundling the detectors (the accessibility one carries jsdom and axe).
 */
export function detectorRules(name: DetectorName, options: Record<string, unknown>): RuleDescription[] {
  switch (name) {
    case 'accessibility':
      return accessibilityRules(wcagLevelFrom(options));
    case 'security':
      return Object.values(SECURITY_RULES).map(describeRule);
    case 'ai_readiness':
      return Object.values(AI_READINESS_RULES).map(describeRule);
  }
}
