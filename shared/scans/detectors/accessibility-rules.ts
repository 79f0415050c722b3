/**
 * What the accessibility detector's rules are, without the detector: WCAG levels, the axe tags of
 * each level, severities, and the rule descriptions exports print. Reads the rule table generated
 * from axe-core (accessibility-rule-table.ts) so that the export route bundles neither axe-core
 * nor jsdom, which only the detector worker runs.
 */
import type { ImpactValue } from 'axe-core';
import { InvalidRequestError } from '#shared/domain/errors';
import type { RuleDescription, Severity } from '#shared/scans/model';
import type { WcagLevel } from '#shared/scans/detectors/wcag-criteria';
import { AXE_RULES } from '#shared/scans/detectors/accessibility-rule-table';

export const WCAG_LEVELS = ['A', 'AA', 'AAA'] as const satisfies readonly WcagLevel[];
export const DEFAULT_WCAG_LEVEL: WcagLevel = 'AA';

export const RULE_PREFIX = 'accessibility.';

// Each WCAG version tags its new criteria separately (wcag2a, wcag21a, wcag22a), and a level
// includes the levels below it, so the tag set for a level is cumulative over both axes.
export const LEVEL_TAGS: Record<WcagLevel, readonly string[]> = {
  A: ['wcag2a', 'wcag21a', 'wcag22a'],
  AA: ['wcag2aa', 'wcag21aa', 'wcag22aa'],
  AAA: ['wcag2aaa', 'wcag21aaa', 'wcag22aaa'],
};

// axe skips rules carrying these tags unless the run names them; our runs never do, so neither
// does the rule list (axe-core's default `tagExclude`).
export const EXCLUDED_TAGS = ['experimental', 'deprecated'];

// Our severity scale is shared with the security detector, where `critical` means an exploitable
// compromise; an axe `critical` (a user is blocked) therefore maps one step down, and so on.
const SEVERITY_BY_IMPACT: Record<NonNullable<ImpactValue>, Severity> = {
  critical: 'high',
  serious: 'medium',
  moderate: 'low',
  minor: 'info',
};
const FALLBACK_SEVERITY: Severity = 'medium';

/** One axe rule as the table holds it: its WCAG level tags only, the only tags a level selects by. */
export interface AxeRuleEntry {
  id: string;
  help: string;
  description: string;
  help_url: string;
  level_tags: readonly string[];
  impact?: NonNullable<ImpactValue>;
}

/** The axe tags that select the WCAG 2.0–2.2 rules up to and including `level`. */
export function tagsFor(level: WcagLevel): string[] {
  const upTo = WCAG_LEVELS.slice(0, WCAG_LEVELS.indexOf(level) + 1);
  return upTo.flatMap((l) => LEVEL_TAGS[l]);
}

/** Reads `wcag_level` from the detector options; absent means AA, anything else is refused. */
export function wcagLevelFrom(options: Record<string, unknown>): WcagLevel {
  const value = options.wcag_level;
  if (value === undefined) return DEFAULT_WCAG_LEVEL;
  if (typeof value === 'string' && (WCAG_LEVELS as readonly string[]).includes(value)) return value as WcagLevel;
  throw new InvalidRequestError('wcag_level must be one of A, AA, AAA', [{ path: 'options.wcag_level', message: 'expected A, AA or AAA' }]);
}

/** Maps an axe impact to our severity; absent impact (never seen for violations) becomes medium. */
export function severityForImpact(impact: ImpactValue | null | undefined): Severity {
  return impact ? SEVERITY_BY_IMPACT[impact] : FALLBACK_SEVERITY;
}

/** Ends a text with a full stop unless it already ends a sentence. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The rules a scan at `level` can report, in axe's order (as `axe.getRules(tagsFor(level))` lists them). */
export function accessibilityRules(level: WcagLevel): RuleDescription[] {
  const tags = tagsFor(level);
  return AXE_RULES.filter((rule) => rule.level_tags.some((tag) => tags.includes(tag))).map((rule) => ({
    rule_id: `${RULE_PREFIX}${rule.id}`,
    detector: 'accessibility',
    name: rule.id,
    short_description: rule.help,
    full_description: rule.description,
    help: `${sentence(rule.help)} ${sentence(rule.description)} See ${rule.help_url}`,
    help_url: rule.help_url,
    default_severity: severityForImpact(rule.impact),
  }));
}
