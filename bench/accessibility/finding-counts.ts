/** Violating elements per axe rule id (no `accessibility.` prefix), keys in order. */
export type RuleCounts = Record<string, number>;

/** Counts each rule's elements: one entry per violating element. */
export function countByRule(rules: readonly string[]): RuleCounts {
  const counts: RuleCounts = {};
  for (const rule of [...rules].sort()) counts[rule] = (counts[rule] ?? 0) + 1;
  return counts;
}

export function totalOf(counts: RuleCounts): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

export interface RuleDifference {
  rule: string;
  browser: number;
  jsdom: number;
}

/** The rules whose element counts differ between the two audits, in rule order. */
export function ruleDifferences(browser: RuleCounts, jsdom: RuleCounts): RuleDifference[] {
  const rules = [...new Set([...Object.keys(browser), ...Object.keys(jsdom)])].sort();
  return rules.map((rule) => ({ rule, browser: browser[rule] ?? 0, jsdom: jsdom[rule] ?? 0 })).filter((entry) => entry.browser !== entry.jsdom);
}

/** Whether every round found the same elements per rule as the first. */
export function sameEveryRound(rounds: readonly RuleCounts[]): boolean {
  const first = JSON.stringify(rounds[0] ?? {});
  return rounds.every((counts) => JSON.stringify(counts) === first);
}
