import { RE2JS, RE2JSException } from 're2js';
import { LruMap } from '#shared/domain/lru-map';

/**
 * Every regular expression an operator writes (a trigger's `match` and chat `pattern`, a custom
 * agent's schema `pattern` and `patternProperties`) runs here, on RE2 (the pure JavaScript port
 * `re2js`): matching takes time linear in the text whatever the pattern, so no pattern can stall
 * the runtime as `^(a|a)*$` does on a backtracking engine. Patterns are written in JavaScript's
 * syntax and translated; what RE2 cannot do in linear time (backreferences, lookaround) is refused
 * when the pattern is saved, with the reason.
 */

/** The longest pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 1_000;
/** The longest text a pattern is tried on, in characters; a longer one never matches. */
export const MAX_MATCHED_TEXT_LENGTH = 100_000;

export interface OperatorRegexOptions {
  ignoreCase?: boolean;
}

/** A compiled operator pattern: `test` is linear in the text. */
export interface OperatorRegex {
  readonly source: string;
  test(text: string): boolean;
  /** Unique per pattern and flags: Ajv keys its compiled patterns by it. */
  toString(): string;
}

/** The pattern cannot be used: too long, not a regular expression, or beyond what RE2 can run in linear time. */
export class OperatorPatternError extends Error {}

const compiled = new LruMap<string, OperatorRegex>(500);

/** Compiles `pattern` for linear-time matching; throws OperatorPatternError saying why it cannot be used. */
export function compileOperatorRegex(pattern: string, options: OperatorRegexOptions = {}): OperatorRegex {
  const ignoreCase = options.ignoreCase === true;
  return compiled.getOrSet(`${ignoreCase ? 'i' : '-'}${pattern}`, () => compileUncached(pattern, ignoreCase));
}

/** Why `pattern` cannot be used (the message names it), or undefined when it can. */
export function operatorPatternProblem(pattern: string, options: OperatorRegexOptions = {}): string | undefined {
  try {
    compileOperatorRegex(pattern, options);
    return undefined;
  } catch (error) {
    if (error instanceof OperatorPatternError) return error.message;
    throw error;
  }
}

function compileUncached(pattern: string, ignoreCase: boolean): OperatorRegex {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new OperatorPatternError(`is longer than ${MAX_PATTERN_LENGTH} characters`);
  let engine: RE2JS;
  try {
    // Native syntax check first: JavaScript's own errors name JavaScript's syntax, which the operator wrote.
    new RegExp(pattern, 'u');
  } catch (error) {
    throw new OperatorPatternError(`is not a regular expression: ${(error as Error).message}`);
  }
  try {
    engine = RE2JS.compile(RE2JS.translateRegExp(pattern), ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    throw new OperatorPatternError(`cannot run in linear time (backreferences and lookaround are not supported): ${error.message}`);
  }
  const name = `/${pattern}/${ignoreCase ? 'i' : ''}`;
  return {
    source: pattern,
    test: (text: string) => text.length <= MAX_MATCHED_TEXT_LENGTH && engine.test(text),
    toString: () => name,
  };
}

/**
 * The engine Ajv's `pattern` and `patternProperties` keywords use (its `code.regExp` option). Ajv
 * calls it at compile time, so a pattern it cannot use makes the schema fail to compile.
 */
export const ajvRegExpEngine = Object.assign(
  (pattern: string): OperatorRegex => {
    try {
      return compileOperatorRegex(pattern);
    } catch (error) {
      if (error instanceof OperatorPatternError) throw new OperatorPatternError(`pattern "${pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern}" ${error.message}`);
      throw error;
    }
  },
  { code: 'ajvRegExpEngine' },
);
