import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointerProblem, pointerTokens, resolvePointer } from '#shared/domain/json-pointer';

// RFC 6901, section 5: the example document and what each pointer refers to.
const rfcDocument = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };

describe('JSON Pointer (RFC 6901)', () => {
  it.each([
    ['', rfcDocument],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/c%d', 2],
    ['/e^f', 3],
    ['/g|h', 4],
    ['/i\\j', 5],
    ['/k"l', 6],
    ['/ ', 7],
    ['/m~0n', 8],
  ])('resolves %j as the RFC says', (pointer, expected) => {
    expect(pointerProblem(pointer)).toBeUndefined();
    expect(resolvePointer(rfcDocument, pointer)).toEqual(expected);
  });

  it('decodes ~01 as ~1, not /', () => {
    expect(pointerTokens('/~01')).toEqual(['~1']);
  });

  it.each(['foo', 'artifact/data', '/a~2b', '/a~'])('refuses %j, saying why', (pointer) => {
    expect(pointerProblem(pointer)).toMatch(/JSON Pointer|~/);
  });

  it('finds nothing past the end, at a leading-zero index, "-", a missing key or inherited properties', () => {
    for (const pointer of ['/foo/2', '/foo/01', '/foo/-', '/nothing', '/foo/0/x', '/__proto__', '/constructor', '/foo/length']) {
      expect(resolvePointer(rfcDocument, pointer), pointer).toBeUndefined();
    }
  });

  it('finds every value of a document at the pointer built from its path', () => {
    const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.dictionary(fc.string(), fc.integer())), (document) => {
        for (const [outer, inner] of Object.entries(document)) {
          for (const [key, value] of Object.entries(inner)) expect(resolvePointer(document, `/${escape(outer)}/${escape(key)}`)).toBe(value);
        }
      }),
    );
  });
});
