import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalKey } from '#shared/scans/crawler/canonical-url';

describe('canonicalKey', () => {
  it.each([
    ['scheme and host in any case', 'HTTPS://Example.COM/Docs', 'https://example.com/Docs'],
    ['the http default port', 'http://example.com:80/a', 'http://example.com/a'],
    ['the https default port', 'https://example.com:443/a', 'https://example.com/a'],
    ['a fragment', 'https://example.com/a#top', 'https://example.com/a'],
    ['an empty query', 'https://example.com/a?', 'https://example.com/a'],
    ['empty query parameters', 'https://example.com/a?&b=1&&', 'https://example.com/a?b=1'],
    ['query parameters in another order', 'https://example.com/?b=2&a=1', 'https://example.com/?a=1&b=2'],
    ['repeated names, ordered by value', 'https://example.com/?t=z&t=a', 'https://example.com/?t=a&t=z'],
    ['a trailing slash', 'https://example.com/docs/', 'https://example.com/docs'],
    ['the root with or without a slash', 'https://example.com', 'https://example.com/'],
    ['/index.html', 'https://example.com/index.html', 'https://example.com/'],
    ['/index.htm', 'https://example.com/index.htm', 'https://example.com/'],
    ['/index.php', 'https://example.com/index.php', 'https://example.com/'],
    ['a directory index below the root', 'https://example.com/docs/index.html', 'https://example.com/docs'],
    ['a directory index with a query', 'https://example.com/index.php?page=2', 'https://example.com/?page=2'],
    ['lower-case hex in escapes', 'https://example.com/caf%c3%a9', 'https://example.com/caf%C3%A9'],
    ['an escaped unreserved character', 'https://example.com/%7Euser/%61bc', 'https://example.com/~user/abc'],
    ['escapes in the query', 'https://example.com/?q=%7e&r=%2f', 'https://example.com/?q=~&r=%2F'],
    ['dot segments', 'https://example.com/a/./b/../c', 'https://example.com/a/c'],
    ['a slash after an index file', 'https://example.com/index.php/', 'https://example.com/'],
  ])('ignores %s', (_case, url, key) => {
    expect(canonicalKey(url)).toBe(key);
  });

  it.each([
    ['another scheme', 'http://example.com/', 'https://example.com/'],
    ['another port', 'https://example.com:8443/', 'https://example.com/'],
    ['another path case', 'https://example.com/Docs', 'https://example.com/docs'],
    ['another query value', 'https://example.com/?a=1', 'https://example.com/?a=2'],
    ['a query or none', 'https://example.com/?a=1', 'https://example.com/'],
    ['a reserved character escaped or not', 'https://example.com/a%2Fb', 'https://example.com/a/b'],
    ['a file that only looks like an index', 'https://example.com/index.html5', 'https://example.com/'],
    ['an index file that is not the last segment', 'https://example.com/index.html/x', 'https://example.com/x'],
  ])('keeps %s apart', (_case, a, b) => {
    expect(canonicalKey(a)).not.toBe(canonicalKey(b));
  });

  it('accepts a URL object and leaves a string that is not a URL as it is', () => {
    expect(canonicalKey(new URL('https://example.com/docs/'))).toBe('https://example.com/docs');
    expect(canonicalKey('not a url')).toBe('not a url');
  });

  const segment = fc.oneof(fc.stringMatching(/^[a-zA-Z0-9._~%-]{1,8}$/), fc.constantFrom('index.html', 'index.php', ''));
  const parameter = fc.tuple(fc.stringMatching(/^[a-z]{1,3}$/), fc.stringMatching(/^[a-z0-9]{0,3}$/)).map(([name, value]) => `${name}=${value}`);

  it('is a fixed point: the key of a key is the key', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), fc.array(parameter, { maxLength: 4 }), fc.boolean(), (segments, parameters, slash) => {
        const url = `https://example.com/${segments.join('/')}${slash ? '/' : ''}${parameters.length ? `?${parameters.join('&')}` : ''}`;
        const key = canonicalKey(url);
        expect(canonicalKey(key)).toBe(key);
      }),
    );
  });

  it('gives the same key whatever the order of the query parameters', () => {
    fc.assert(
      fc.property(fc.array(parameter, { minLength: 1, maxLength: 5 }).chain((parameters) => fc.tuple(fc.constant(parameters), fc.shuffledSubarray(parameters, { minLength: parameters.length }))), ([parameters, shuffled]) => {
        expect(canonicalKey(`https://example.com/p?${shuffled.join('&')}`)).toBe(canonicalKey(`https://example.com/p?${parameters.join('&')}`));
      }),
    );
  });
});
