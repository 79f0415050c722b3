import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '#shared/scans/fingerprint';
import { groupByFingerprint, MAX_OTHER_LOCATIONS } from '#shared/scans/finding-groups';
import type { DetectedFinding } from '#shared/scans/model';

function detected(url: string, overrides: Partial<DetectedFinding> = {}, location: Partial<DetectedFinding['location']> = {}): DetectedFinding {
  return {
    detector: 'accessibility',
    rule_id: 'accessibility.image-alt',
    severity: 'high',
    title: 'Images must have alternative text',
    description: 'd',
    remediation: 'r',
    references: [],
    cvss_score: 0,
    ...overrides,
    location: { type: 'url', url, selector: 'header > img', snippet: '<img src="/logo.png">', line: 3, ...location },
  };
}

describe('one template’s problem is one finding', () => {
  it('groups the same element problem across pages at the first page, with the others as locations', () => {
    const groups = groupByFingerprint([detected('https://s.test/'), detected('https://s.test/a', {}, { line: 7 }), detected('https://s.test/b')]);

    expect([...groups.values()]).toEqual([
      expect.objectContaining({
        location: expect.objectContaining({ url: 'https://s.test/', line: 3 }),
        page_count: 3,
        other_locations: [expect.objectContaining({ url: 'https://s.test/a', line: 7 }), expect.objectContaining({ url: 'https://s.test/b' })],
      }),
    ]);
  });

  it('keeps elements with different markup, other rules and page-bound findings apart', () => {
    const groups = groupByFingerprint(
      [
        detected('https://s.test/'),
        detected('https://s.test/a', {}, { snippet: '<img src="/team.png">' }),
        detected('https://s.test/a', { rule_id: 'accessibility.role-img-alt' }),
        detected('https://s.test/', { detector: 'security', rule_id: 'security.missing-hsts' }, { selector: 'header:strict-transport-security', snippet: undefined }),
        detected('https://s.test/a', { detector: 'security', rule_id: 'security.missing-hsts' }, { selector: 'header:strict-transport-security', snippet: undefined }),
      ],
    );

    expect(groups.size).toBe(5);
    expect([...groups.values()].every((finding) => finding.page_count === undefined)).toBe(true);
  });

  it('counts every page but keeps the first few places, and ignores a page seen twice', () => {
    const pages = Array.from({ length: MAX_OTHER_LOCATIONS + 10 }, (_, i) => detected(`https://s.test/p${i}`));
    const [grouped] = groupByFingerprint([...pages, detected('https://s.test/p3')]).values();

    expect(grouped.page_count).toBe(MAX_OTHER_LOCATIONS + 10);
    expect(grouped.other_locations).toHaveLength(MAX_OTHER_LOCATIONS);
    expect(grouped.other_locations?.[0].url).toBe('https://s.test/p1');
  });

  it('gives the grouped finding the same fingerprint whichever pages show it', () => {
    expect(fingerprintOf(detected('https://s.test/'))).toBe(fingerprintOf(detected('https://s.test/other', {}, { line: 99 })));
    expect(fingerprintOf(detected('https://s.test/', { detector: 'security' }))).not.toBe(fingerprintOf(detected('https://s.test/other', { detector: 'security' })));
  });
});
