import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStorableNumber, unstorableNumberPaths, withUnstorableNumbersAsNull } from '#shared/domain/storable-number';

describe('numbers the table can store as sent', () => {
  it.each([0, -0, 1, -1.5, 0.1, 9007199254740991, -9007199254740991, 1e-130, -1e-130, 1.2345678901234567, 1e15])('stores %s', (value) => {
    expect(isStorableNumber(value)).toBe(true);
  });

  it.each([9007199254740992, -9007199254740992, JSON.parse('9007199254740993'), JSON.parse('123456789012345678901234567890123456789012'), 1e20, Infinity, -Infinity, NaN, 1e-200, -5e-324, 9e-131])('refuses %s', (value) => {
    expect(isStorableNumber(value)).toBe(false);
  });

  it('names the path of every unstorable number, in document order', () => {
    const body = JSON.parse('{"a":1,"b":[1e-200,{"c":1e309}],"d":{"e":9007199254740993,"f":"1e309"}}');

    expect(unstorableNumberPaths(body)).toEqual([['b', 0], ['b', 1, 'c'], ['d', 'e']]);
    expect(unstorableNumberPaths({ fine: [0, 1.5, 'x', null, true] })).toEqual([]);
  });

  it('replaces exactly the unstorable numbers by null, leaving nothing unstorable behind', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(1e-200, 1e300, -9007199254740993, Infinity), (value, bad) => {
        const body = { value, bad, list: [value, bad] };
        const cleaned = withUnstorableNumbersAsNull(body);

        expect(unstorableNumberPaths(cleaned)).toEqual([]);
        for (const path of unstorableNumberPaths(body)) expect(path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], cleaned)).toBeNull();
        expect(cleaned.bad).toBeNull();
      }),
    );
  });
});
