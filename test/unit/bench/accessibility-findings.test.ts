import { describe, expect, it } from 'vitest';
import { countByRule, ruleDifferences, sameEveryRound, totalOf } from '../../../bench/accessibility/finding-counts';

describe('accessibility finding counts', () => {
  it('counts violating elements per rule', () => {
    const counts = countByRule(['image-alt', 'color-contrast', 'image-alt']);

    expect(counts).toEqual({ 'color-contrast': 1, 'image-alt': 2 });
    expect(totalOf(counts)).toBe(3);
  });

  it('lists the rules whose counts differ, either way, and leaves out the equal ones', () => {
    const differences = ruleDifferences({ 'color-contrast': 2, 'image-alt': 1, list: 1 }, { 'image-alt': 1, list: 2, 'old-rule': 1 });

    expect(differences).toEqual([
      { rule: 'color-contrast', browser: 2, jsdom: 0 },
      { rule: 'list', browser: 1, jsdom: 2 },
      { rule: 'old-rule', browser: 0, jsdom: 1 },
    ]);
  });

  it('tells whether every round found the same', () => {
    expect(sameEveryRound([{ a: 1 }, { a: 1 }])).toBe(true);
    expect(sameEveryRound([{ a: 1 }, { a: 2 }])).toBe(false);
    expect(sameEveryRound([])).toBe(true);
  });
});
