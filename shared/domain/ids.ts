import { createHash } from 'node:crypto';
import { decodeTime, encodeTime, monotonicFactory } from 'ulid';

/**
 * Identifiers are a type prefix plus a ULID: unique, URL-safe, and sortable by creation time,
 * which the key design relies on for newest-first and oldest-first listings.
 */
const nextUlid = monotonicFactory();

export type IdPrefix = 'tsk' | 'art' | 'agt' | 'evt' | 'key' | 'req' | 'apr' | 'whk' | 'prj' | 'scn' | 'usr' | 'ses' | 'msg' | 'trg' | 'run' | 'int' | 'tcl' | 'lse' | 'kbj';

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now).toLowerCase()}`;
}

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * An id of that prefix whose ULID has the time `at` and a random part derived from `seed`: the
 * same seed and time always give the same id. For records that must be written once however
 * often their cause is handled (a trigger's run for one scheduled time or one artifact), so that
 * the id itself is the claim a conditional put checks.
 */
export function derivedId(prefix: IdPrefix, at: number, seed: string): string {
  const time = encodeTime(at, 10).toLowerCase();
  const digest = createHash('sha256').update(seed).digest();
  let random = '';
  // 80 bits: sixteen 5-bit characters.
  for (let index = 0; index < 16; index++) {
    const bit = index * 5;
    const value = ((digest[bit >> 3] << 8) | digest[(bit >> 3) + 1]) >> (11 - (bit & 7));
    random += CROCKFORD[value & 31];
  }
  return `${prefix}_${time}${random}`;
}

const ID_PATTERN = /^[a-z]{3}_[0-9a-hjkmnp-tv-z]{26}$/;

/** True when `value` looks like an id of that prefix; cheap rejection of junk path parameters. */
export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}

/** When an id was minted: the time inside its ULID. */
export function idTime(id: string): Date {
  return new Date(decodeTime(id.slice(id.indexOf('_') + 1).toUpperCase()));
}
