import * as calculator from 'ae-cvss-calculator';

/**
 * CVSS 3.1 base scores, computed by ae-cvss-calculator ({metæffekt}, Apache-2.0) rather than a
 * formula of our own: the spec's rounding rules (Roundup, scope-changed coefficients) are easy
 * to get subtly wrong, and the library is tested against FIRST's calculator. Rules declare their
 * score beside their vector and the tests check the two against this, so that no function
 * loads the calculator (docs/benchmarks.md has its weight) to score rules that never change.
 */

// The package ships a CommonJS bundle with ESM-style typings: under Node's ESM loader its exports
// sit on `default`, under a bundler on the namespace itself. Take whichever holds the class.
const lib = ('Cvss3P1' in calculator ? calculator : (calculator as unknown as { default: typeof calculator }).default) as typeof calculator;

const PREFIX = 'CVSS:3.1/';
const BASE_METRICS = ['AV', 'AC', 'PR', 'UI', 'S', 'C', 'I', 'A'] as const;

export class InvalidCvssVectorError extends Error {
  constructor(vector: string, why: string) {
    super(`Invalid CVSS 3.1 vector "${vector}": ${why}`);
    this.name = 'InvalidCvssVectorError';
  }
}

/** The canonical `CVSS:3.1/AV:..` form of a base vector given with or without the prefix. */
export function normaliseCvssVector(vector: string): string {
  const body = vector.startsWith(PREFIX) ? vector.slice(PREFIX.length) : vector;
  const metrics = new Map<string, string>();
  for (const part of body.split('/')) {
    const [name, value, extra] = part.split(':');
    if (!name || !value || extra !== undefined) throw new InvalidCvssVectorError(vector, `malformed metric "${part}"`);
    if (metrics.has(name)) throw new InvalidCvssVectorError(vector, `metric ${name} repeated`);
    metrics.set(name, value);
  }
  const missing = BASE_METRICS.filter((name) => !metrics.has(name));
  if (missing.length > 0) throw new InvalidCvssVectorError(vector, `missing base metrics ${missing.join(', ')}`);
  return PREFIX + body;
}

/** CVSS 3.1 base score (0.0 to 10.0, one decimal) of a vector; throws InvalidCvssVectorError. */
export function cvssBaseScore(vector: string): number {
  const normalised = normaliseCvssVector(vector);
  let score: number | undefined;
  try {
    score = new lib.Cvss3P1(normalised).calculateScores().base;
  } catch (error) {
    throw new InvalidCvssVectorError(vector, (error as Error).message);
  }
  if (score === undefined || Number.isNaN(score)) throw new InvalidCvssVectorError(vector, 'base metrics not fully defined');
  return score;
}
