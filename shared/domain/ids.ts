import { decodeTime, monotonicFactory } from 'ulid';

/**
 * Identifiers are a type prefix plus a ULID: unique, URL-safe, and sortable by creation time,
 * which the key design relies on for newest-first and oldest-first listings.
 */
const nextUlid = monotonicFactory();

export type IdPrefix = 'tsk' | 'art' | 'agt' | 'evt' | 'key' | 'req' | 'apr' | 'whk' | 'prj' | 'scn' | 'usr' | 'ses' | 'msg' | 'trg' | 'run';

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now).toLowerCase()}`;
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
