import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { accessibilityDetector, axeRuleTable } from '#shared/scans/detectors/accessibility';
import { accessibilityRules, EXCLUDED_TAGS, severityForImpact, tagsFor } from '#shared/scans/detectors/accessibility-rules';
import { AXE_RULES } from '#shared/scans/detectors/accessibility-rule-table';
import { criterionForTag, criterionUrls, isCriterionTag } from '#shared/scans/detectors/wcag-criteria';
import { RULE_TABLE_FILE, ruleTableSource } from '../../../bin/generate-accessibility-rules';

describe('accessibility rules', () => {
  it('builds cumulative tag sets per level', () => {
    expect(tagsFor('A')).toEqual(['wcag2a', 'wcag21a', 'wcag22a']);
    expect(tagsFor('AA')).toEqual(['wcag2a', 'wcag21a', 'wcag22a', 'wcag2aa', 'wcag21aa', 'wcag22aa']);
    expect(tagsFor('AAA')).toEqual(expect.arrayContaining([...tagsFor('AA'), 'wcag2aaa', 'wcag21aaa']));
    expect(tagsFor('AA')).not.toContain('best-practice');
  });

  it('describes every rule reportable at a level, and grows with the level', () => {
    const a = accessibilityRules('A').map((r) => r.rule_id);
    const aa = accessibilityRules('AA').map((r) => r.rule_id);
    const aaa = accessibilityRules('AAA').map((r) => r.rule_id);

    expect(a).toContain('accessibility.image-alt');
    expect(a).not.toContain('accessibility.meta-viewport');
    expect(aa).toEqual(expect.arrayContaining([...a, 'accessibility.meta-viewport', 'accessibility.color-contrast']));
    expect(aaa).toEqual(expect.arrayContaining([...aa, 'accessibility.color-contrast-enhanced']));
    expect(aaa).not.toContain('accessibility.region'); // best-practice only
    expect(accessibilityDetector.rules.map((r) => r.rule_id)).toEqual(aaa);
  });

  it('fills every field of a rule description', () => {
    const rule = accessibilityRules('A').find((r) => r.rule_id === 'accessibility.image-alt');

    expect(rule).toMatchObject({
      detector: 'accessibility',
      name: 'image-alt',
      short_description: 'Images must have alternative text',
      full_description: 'Ensure <img> elements have alternative text or a role of none or presentation',
      default_severity: 'high',
    });
    expect(rule?.help_url).toMatch(/^https:\/\/dequeuniversity\.com\/rules\/axe\/4\.\d+\/image-alt/);
    expect(rule?.help).toContain(rule?.help_url);
  });

  it('keeps the generated rule table in step with the installed axe-core (npm run generate:accessibility-rules)', () => {
    const source = readFileSync(join(import.meta.dirname, '../../..', RULE_TABLE_FILE), 'utf8');

    expect(AXE_RULES).toEqual(axeRuleTable());
    expect(source).toBe(ruleTableSource(axeRuleTable()));
  });

  it('lists per level exactly the rules axe runs at that level, in axe order', () => {
    for (const level of ['A', 'AA', 'AAA'] as const) {
      const fromAxe = axe
        .getRules(tagsFor(level))
        .filter((rule) => !rule.tags.some((tag) => EXCLUDED_TAGS.includes(tag)))
        .map((rule) => `accessibility.${rule.ruleId}`);

      expect(accessibilityRules(level).map((rule) => rule.rule_id)).toEqual(fromAxe);
    }
  });

  it('maps axe impact to severity one step below, since critical is kept for security', () => {
    expect(severityForImpact('critical')).toBe('high');
    expect(severityForImpact('serious')).toBe('medium');
    expect(severityForImpact('moderate')).toBe('low');
    expect(severityForImpact('minor')).toBe('info');
    expect(severityForImpact(undefined)).toBe('medium');
  });
});

describe('WCAG criteria table', () => {
  it('knows every success criterion the installed axe tags', () => {
    const tags = new Set(axe.getRules().flatMap((r) => r.tags).filter(isCriterionTag));

    const unknown = [...tags].filter((tag) => criterionForTag(tag) === undefined);

    expect(tags.size).toBeGreaterThan(10);
    expect(unknown).toEqual([]);
  });

  it('tells criterion tags from level tags, including two-digit criteria', () => {
    expect(criterionForTag('wcag1410')).toMatchObject({ number: '1.4.10', slug: 'reflow', level: 'AA' });
    expect(criterionForTag('wcag2411')).toMatchObject({ number: '2.4.11', slug: 'focus-not-obscured-minimum' });
    expect(isCriterionTag('wcag21aa')).toBe(false);
    expect(criterionUrls(['wcag2a', 'wcag111', 'wcag111', 'cat.text-alternatives'])).toEqual(['https://www.w3.org/WAI/WCAG22/Understanding/non-text-content']);
  });

  it('falls back to the WCAG 2.2 Recommendation for a criterion it does not know', () => {
    expect(criterionUrls(['wcag999'])).toEqual(['https://www.w3.org/TR/WCAG22/']);
  });
});
