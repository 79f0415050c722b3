import { describe, expect, it } from 'vitest';
import { robotsRulesOf } from '#shared/scans/crawler/robots-rules';

const ROBOTS_URL = 'https://example.test/robots.txt';
const rulesFrom = (body: string) => robotsRulesOf({ url: ROBOTS_URL, status: 200, body });
const at = (path: string) => new URL(path, ROBOTS_URL).href;

describe('robotsRulesOf', () => {
  it("obeys the scanner's own group and not the `*` group when both exist", () => {
    const allowed = rulesFrom('User-agent: *\nDisallow: /\n\nUser-agent: GatehouseScanner\nDisallow: /private\n');

    expect(allowed(at('/'))).toBe(true);
    expect(allowed(at('/about'))).toBe(true);
    expect(allowed(at('/private'))).toBe(false);
    expect(allowed(at('/private/report.html'))).toBe(false);
  });

  it('matches the group name case-insensitively and without a version', () => {
    const allowed = rulesFrom('User-agent: *\nAllow: /\n\nUser-agent: gatehousescanner/2.0\nDisallow: /admin\n');

    expect(allowed(at('/admin'))).toBe(false);
  });

  it('falls back to the `*` group when no group names the scanner', () => {
    const allowed = rulesFrom('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n');

    expect(allowed(at('/'))).toBe(true);
    expect(allowed(at('/tmp/x'))).toBe(false);
  });

  it('lets the longest matching rule decide between Allow and Disallow, Allow winning a tie', () => {
    const allowed = rulesFrom('User-agent: *\nDisallow: /shop\nAllow: /shop/public\nAllow: /cart\nDisallow: /cart\n');

    expect(allowed(at('/shop/orders'))).toBe(false);
    expect(allowed(at('/shop/public/shoes'))).toBe(true);
    expect(allowed(at('/cart'))).toBe(true);
  });

  it('reads `*` as any run of characters and a final `$` as the end of the URL', () => {
    const allowed = rulesFrom('User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?sessionid=\n');

    expect(allowed(at('/docs/manual.pdf'))).toBe(false);
    expect(allowed(at('/docs/manual.pdf?download=1'))).toBe(true);
    expect(allowed(at('/cart?sessionid=42'))).toBe(false);
    expect(allowed(at('/cart'))).toBe(true);
  });

  it('applies the rules by path when the crawl moved from http to https', () => {
    const allowed = robotsRulesOf({ url: 'http://example.test/robots.txt', status: 200, body: 'User-agent: *\nDisallow: /private\n' });

    expect(allowed('https://example.test/private')).toBe(false);
  });

  it('allows everything without a usable robots.txt: missing (4xx), failing (5xx), unreachable, empty', () => {
    const everything = ['/', '/private', '/a?b=c'].map(at);
    for (const rules of [
      robotsRulesOf({ url: ROBOTS_URL, status: 404, body: 'User-agent: *\nDisallow: /' }),
      robotsRulesOf({ url: ROBOTS_URL, status: 503, body: 'User-agent: *\nDisallow: /' }),
      robotsRulesOf(undefined),
      rulesFrom(''),
      rulesFrom('User-agent: *\nDisallow:\n'),
      rulesFrom('<!DOCTYPE html><title>Not found</title>'),
    ]) {
      expect(everything.map(rules)).toEqual([true, true, true]);
    }
  });
});
