import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivePageCursorKey, openCursor, sealCursor, type CursorBinding } from '#shared/domain/page-cursor';
import { InvalidRequestError } from '#shared/domain/errors';

const key = derivePageCursorKey(randomBytes(32));
const text = fc.string({ minLength: 1, maxLength: 40 });
const binding = fc.record({ tenant: text, list: text });
const position = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 60 }), { minKeys: 1, maxKeys: 6 });

/** The 400 `invalid_cursor` a refused cursor is. */
function refusal(open: () => unknown): string | undefined {
  try {
    open();
    return undefined;
  } catch (error) {
    return error instanceof InvalidRequestError ? error.code : String(error);
  }
}

/** The cursor with bit `bit` of its `index`th character's byte flipped. */
function flipped(cursor: string, index: number, bit: number): string {
  const bytes = Buffer.from(cursor, 'latin1');
  bytes[index] ^= 1 << bit;
  return bytes.toString('latin1');
}

describe('signed page cursors', () => {
  it('round-trip: a listing opens its own cursor to the position it sealed', () => {
    fc.assert(fc.property(binding, position, (where, at) => {
      expect(openCursor(key, where, sealCursor(key, where, at))).toEqual(at);
    }));
  });

  it('refuses a cursor with any one bit flipped', () => {
    fc.assert(fc.property(binding, position, fc.nat(), fc.integer({ min: 0, max: 7 }), (where, at, index, bit) => {
      const cursor = sealCursor(key, where, at);
      expect(refusal(() => openCursor(key, where, flipped(cursor, index % cursor.length, bit)))).toBe('invalid_cursor');
    }));
  });

  it('refuses a cursor of another tenant or another listing', () => {
    fc.assert(fc.property(binding, binding, position, (where, elsewhere, at) => {
      fc.pre(where.tenant !== elsewhere.tenant || where.list !== elsewhere.list);
      expect(refusal(() => openCursor(key, elsewhere, sealCursor(key, where, at)))).toBe('invalid_cursor');
    }));
  });

  it('refuses a cursor signed with another deployment’s key', () => {
    const other = derivePageCursorKey(randomBytes(32));
    fc.assert(fc.property(binding, position, (where, at) => {
      expect(refusal(() => openCursor(key, where, sealCursor(other, where, at)))).toBe('invalid_cursor');
    }));
  });

  it('refuses made-up strings, including the old unsigned base64 JSON cursors', () => {
    const where: CursorBinding = { tenant: 'a', list: 'members|TENANT#a' };
    const unsigned = Buffer.from(JSON.stringify({ s: 'members|a', k: { pk: 'TENANT#a#MEMBERS', sk: 'X' } })).toString('base64url');
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (cursor) => {
      expect(refusal(() => openCursor(key, where, cursor))).toBe('invalid_cursor');
    }));
    expect(refusal(() => openCursor(key, where, unsigned))).toBe('invalid_cursor');
    expect(refusal(() => openCursor(key, where, 'x'.repeat(5000)))).toBe('invalid_cursor');
  });

  it('derives different signing keys from different secrets, and refuses a short secret', () => {
    expect(derivePageCursorKey(Buffer.alloc(32, 1)).equals(derivePageCursorKey(Buffer.alloc(32, 2)))).toBe(false);
    expect(derivePageCursorKey(Buffer.alloc(32, 1)).equals(Buffer.alloc(32, 1))).toBe(false);
    expect(() => derivePageCursorKey(Buffer.alloc(16))).toThrow(RangeError);
  });
});
