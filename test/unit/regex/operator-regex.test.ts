import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileOperatorRegex, MAX_MATCHED_TEXT_LENGTH, MAX_PATTERN_LENGTH, operatorPatternProblem } from '#shared/domain/operator-regex';

/** A string whose every character read is counted: how much work a match did, without a clock. */
class CountingString extends String {
  reads = 0;
  override charCodeAt(index: number): number {
    this.reads++;
    return super.charCodeAt(index);
  }
  override codePointAt(index: number): number | undefined {
    this.reads++;
    return super.codePointAt(index);
  }
}

/** Reads a match of `pattern` makes on `text`. */
function readsOf(pattern: string, text: string): { matched: boolean; reads: number } {
  const counted = new CountingString(text);
  const matched = compileOperatorRegex(pattern, { ignoreCase: true }).test(counted as unknown as string);
  return { matched, reads: counted.reads };
}

describe('operator regular expressions run on a linear-time engine', () => {
  // The patterns (trigger match and chat pattern), and the classic shapes of catastrophic backtracking.
  it.each([
    ['^(a|a)*$', 'a'],
    ['\\s*\\s*\\s*\\s*x', ' '],
    ['(a+)+$', 'a'],
    ['^(\\w+\\s?)*$', 'a'],
    ['(x+x+)+y', 'x'],
  ])('%s reads each character of a hostile text a bounded number of times', (pattern, unit) => {
    for (const length of [28, 1_000, 20_000]) {
      const { matched, reads } = readsOf(pattern, `${unit.repeat(length)}!`);
      expect(matched).toBe(false);
      // A backtracking engine re-reads the text exponentially often (28 characters took 0.8 s); RE2 reads it about once.
      expect(reads).toBeLessThanOrEqual(4 * (length + 1) + 16);
    }
  });

  it('still matches what those patterns should', () => {
    expect(compileOperatorRegex('^(a|a)*$').test('aaaa')).toBe(true);
    expect(compileOperatorRegex('\\s*\\s*\\s*\\s*x').test('   x')).toBe(true);
    expect(compileOperatorRegex('^invoice', { ignoreCase: true }).test('INVOICE 42')).toBe(true);
    expect(compileOperatorRegex('^invoice').test('INVOICE 42')).toBe(false);
  });

  it('takes JavaScript syntax: \\u escapes, named groups, escaped slashes', () => {
    expect(compileOperatorRegex('^\\u0041\\/(?<n>\\d+)$').test('A/42')).toBe(true);
  });

  it.each([
    ['(a)\\1', 'cannot run in linear time'],
    ['foo(?=bar)', 'cannot run in linear time'],
    ['(?<!x)y', 'cannot run in linear time'],
    ['(unclosed', 'is not a regular expression'],
    ['a'.repeat(MAX_PATTERN_LENGTH + 1), `is longer than ${MAX_PATTERN_LENGTH} characters`],
  ])('refuses %s, saying why', (pattern, reason) => {
    expect(operatorPatternProblem(pattern)).toContain(reason);
  });

  it('accepts a pattern of exactly the length cap', () => {
    expect(operatorPatternProblem('a'.repeat(MAX_PATTERN_LENGTH))).toBeUndefined();
  });

  it('never matches a text over the input cap', () => {
    const regex = compileOperatorRegex('a');
    expect(regex.test('a'.repeat(MAX_MATCHED_TEXT_LENGTH))).toBe(true);
    expect(regex.test('a'.repeat(MAX_MATCHED_TEXT_LENGTH + 1))).toBe(false);
  });

  it('names each pattern apart (Ajv keys compiled patterns by the name)', () => {
    expect(String(compileOperatorRegex('^a$'))).not.toBe(String(compileOperatorRegex('^b$')));
    expect(String(compileOperatorRegex('^a$'))).not.toBe(String(compileOperatorRegex('^a$', { ignoreCase: true })));
  });
});

/**
 * Patterns both engines read the same way: ASCII literals and classes, groups, alternation,
 * quantifiers, anchors. Only single characters repeat, so JavaScript's backtracking engine (the
 * reference here) stays fast on them too: a repeated group of repeats is the hostile case above.
 */
const quantifiedCharacter = fc
  .tuple(
    fc.constantFrom('a', 'b', 'c', 'A', '1', '_', ' ', '-', '.', '\\d', '\\w', '\\s', '[ab]', '[^a]', '[a-c1]', '\\.'),
    fc.constantFrom('', '', '*', '+', '?', '{1,3}', '{2}', '*?'),
  )
  .map(([atom, quantifier]) => atom + quantifier);
const safePattern: fc.Arbitrary<string> = fc.letrec<{ pattern: string; piece: string }>((tie) => ({
  piece: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    quantifiedCharacter,
    fc.tuple(tie('pattern'), fc.constantFrom('', '?')).map(([inner, optional]) => `(?:${inner})${optional}`),
    tie('pattern').map((inner) => `(${inner})`),
  ),
  pattern: fc
    .array(tie('piece'), { minLength: 1, maxLength: 4 })
    .chain((pieces) => fc.constantFrom(pieces.join(''), `${pieces[0]}|${pieces.slice(1).join('')}`)),
})).pattern.chain((pattern) => fc.constantFrom(pattern, `^${pattern}`, `${pattern}$`, `^${pattern}$`));

const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', 'B', '1', '_', ' ', '-', '.'), maxLength: 24 });

describe('the linear-time engine agrees with JavaScript RegExp', () => {
  it('on a generated family of safe patterns, with and without ignoreCase', () => {
    fc.assert(
      fc.property(safePattern, text, fc.boolean(), (pattern, input, ignoreCase) => {
        expect(compileOperatorRegex(pattern, { ignoreCase }).test(input)).toBe(new RegExp(pattern, ignoreCase ? 'iu' : 'u').test(input));
      }),
      { numRuns: 300 },
    );
  });

  it('and reads a generated text in time linear in its length, whatever the safe pattern', () => {
    fc.assert(
      fc.property(safePattern, fc.constantFrom('a', 'ab', ' ', '1_'), fc.integer({ min: 100, max: 2_000 }), (pattern, unit, repeats) => {
        const input = `${unit.repeat(repeats)}!`;
        expect(readsOf(pattern, input).reads).toBeLessThanOrEqual(4 * input.length + 16);
      }),
      { numRuns: 300 },
    );
  });
});
