import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inCrawlScope, matchesPathPattern } from '#shared/scans/crawler/crawl-scope';

describe('matchesPathPattern', () => {
  it.each([
    ['/blog', '/blog', true],
    ['/blog', '/blog/post-1', true],
    ['/blog', '/blogroll', true],
    ['/blog/', '/blog', false],
    ['/blog$', '/blog', true],
    ['/blog$', '/blog/post-1', false],
    ['/*.pdf$', '/files/report.pdf', true],
    ['/*.pdf$', '/files/report.pdf?v=2', false],
    ['/*/edit', '/posts/42/edit', true],
    ['/*/edit', '/edit', false],
    ['/*?page=', '/news?page=2', true],
    ['/search?q=', '/search?sort=new&q=x', false],
    ['/a*b*c$', '/axxbyyc', true],
    ['/a*b*c$', '/axxbyyc/d', false],
    ['/', '/anything', true],
    ['/*', '/', true],
    ['/caf%c3%a9', '/caf%C3%A9/menu', true],
    ['/café', '/caf%C3%A9', true],
    ['/my page', '/my%20page', true],
    ['/price$5', '/price$5', true],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(matchesPathPattern(pattern, path)).toBe(expected);
  });

  it('answers quickly for patterns made to backtrack', () => {
    const pattern = `/${'*a'.repeat(60)}$`;
    const path = `/${'a'.repeat(2000)}b`;
    const started = performance.now();

    expect(matchesPathPattern(pattern, path)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('without `*` or `$`, is a prefix test', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\/[a-z0-9/._-]{0,12}$/), fc.stringMatching(/^[a-z0-9/._-]{0,12}$/), (pattern, rest) => {
        expect(matchesPathPattern(pattern, pattern + rest)).toBe(true);
        expect(matchesPathPattern(`${pattern}$`, pattern + rest)).toBe(rest === '');
      }),
    );
  });
});

describe('inCrawlScope', () => {
  const url = (path: string) => `https://example.test${path}`;

  it('takes every path without patterns', () => {
    expect(inCrawlScope(url('/any/thing?x=1'), {})).toBe(true);
    expect(inCrawlScope(url('/any'), { include: [], exclude: [] })).toBe(true);
  });

  it('takes a path that some include pattern matches and no exclude pattern does', () => {
    const scope = { include: ['/docs/', '/blog/'], exclude: ['/docs/drafts/', '/*.pdf$'] };

    expect(inCrawlScope(url('/docs/start'), scope)).toBe(true);
    expect(inCrawlScope(url('/blog/2024/post'), scope)).toBe(true);
    expect(inCrawlScope(url('/pricing'), scope)).toBe(false);
    expect(inCrawlScope(url('/docs/drafts/next'), scope)).toBe(false);
    expect(inCrawlScope(url('/docs/manual.pdf'), scope)).toBe(false);
  });

  it('matches the query too', () => {
    expect(inCrawlScope(url('/list?page=2'), { exclude: ['/*?page='] })).toBe(false);
    expect(inCrawlScope(url('/list'), { exclude: ['/*?page='] })).toBe(true);
  });
});
