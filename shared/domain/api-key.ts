import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DEFAULT_ROLE, type Principal, type Role } from '#shared/domain/roles';

/**
 * API keys look like `gh_live_<30 random base62><6 base62 checksum>`, as GitHub's tokens do: a
 * recognisable prefix (so secret scanners and people can tell what leaked), 178 bits of entropy
 * (so storing only a SHA-256 hash is safe), and a CRC32 of everything before it, so a mistyped,
 * truncated or made-up key is refused offline, without a database call.
 *
 * Keys without the prefix (the dev strings of GATEHOUSE_API_KEYS, like `key_a`) carry no
 * checksum; only the database can tell whether they exist. Prefixed keys of 32 random characters
 * and no checksum were issued before checksums existed and are still looked up.
 */
export const API_KEY_PREFIX = 'gh_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const LEGACY_RANDOM_LENGTH = 32;

/**
 * Which keys the local runtime manages: `env` ones it registered from GATEHOUSE_API_KEYS, and its
 * `dev` key. Keys of the keys CLI carry no source, and the runtime never touches them.
 */
export type ApiKeySource = 'env' | 'dev';

export interface ApiKeyRecord {
  key_id: string;
  tenant_id: string;
  key_hash: string;
  /** First characters of the key, enough to recognise it in a list. */
  display_prefix: string;
  created_at: string;
  revoked_at?: string;
  last_used_at?: string;
  source?: ApiKeySource;
  /** A label its creator chose (`POST /api-keys`); keys of the CLI and the runtime have none. */
  name?: string;
  /** Absent: `admin` (keys of GATEHOUSE_API_KEYS, the dev key, CLI keys without `--role`). */
  role?: Role;
  /** The principal that created it through the API; absent for keys made outside the API. */
  created_by?: Principal;
  /** The custom agent (slug) a key of role `agent` works for; absent on every other key. */
  agent?: string;
  /**
   * The person (user id) whose power the key never exceeds (shared/domain/key-binding.ts): its
   * creator, or the person a creating key was bound to. Absent on keys made outside the API and on
   * keys of unbound keys; keys created by a person before binding existed are bound by `created_by`.
   */
  bound_to?: string;
  /** The role the key was created with, once a demotion of its person capped `role` below it. */
  granted_role?: Role;
  /** Why the key was revoked when the service revoked it (`creator_removed`, `creator_demoted`). */
  revoked_reason?: string;
}

/** The person a key is bound to: `bound_to`, or the person who created it through the API. */
export function boundPersonOf(record: Pick<ApiKeyRecord, 'bound_to' | 'created_by'>): string | undefined {
  return record.bound_to ?? (record.created_by?.type === 'user' ? record.created_by.id : undefined);
}

/**
 * What a key may do now: the role it acts with (undefined: none, it is refused though not yet
 * revoked, its person being removed or no longer allowed any role the key has).
 */
export interface KeyStanding {
  role: Role | undefined;
}

/** The role a key acts with. */
export function roleOf(record: Pick<ApiKeyRecord, 'role'>): Role {
  return record.role ?? DEFAULT_ROLE;
}

/**
 * A key as the API shows it: never its hash, never the key itself. `standing` (default: the stored
 * role) is what the key may do now under its person: `role` is what it acts with, `granted_role`
 * what it was created with, `capped` whether the first is below the second, `suspended` whether
 * it is refused though not revoked.
 */
export function renderApiKey(record: ApiKeyRecord, standing: KeyStanding = { role: roleOf(record) }) {
  const granted = record.granted_role ?? roleOf(record);
  const role = standing.role ?? roleOf(record);
  return {
    key_id: record.key_id,
    name: record.name ?? null,
    role,
    granted_role: granted,
    capped: role !== granted,
    suspended: !record.revoked_at && standing.role === undefined,
    bound_to: boundPersonOf(record) ?? null,
    display_prefix: record.display_prefix,
    created_at: record.created_at,
    created_by: record.created_by ?? null,
    last_used_at: record.last_used_at ?? null,
    ...(record.agent ? { agent: record.agent } : {}),
    ...(record.revoked_at ? { revoked_at: record.revoked_at } : {}),
    ...(record.revoked_reason ? { revoked_reason: record.revoked_reason } : {}),
  };
}

/** Uniform base62 characters: bytes ≥ 248 are dropped so that `byte % 62` has no bias. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

/** CRC-32 (IEEE 802.3, as zlib and GitHub's token checksums use) of a string's UTF-8 bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A number in base62, left-padded with zeros to `width` characters (62^6 > 2^32). */
export function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

/** The checksum characters that end a key whose other characters are `payload`. */
export function apiKeyChecksum(payload: string): string {
  return toBase62(crc32(payload), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const payload = `${API_KEY_PREFIX}${randomBase62(RANDOM_LENGTH)}`;
  return `${payload}${apiKeyChecksum(payload)}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Only well-formed tokens are looked up; anything else is rejected without a database call. */
export function isWellFormedApiKey(token: string): boolean {
  return token.length >= 1 && token.length <= 256 && /^[A-Za-z0-9_\-.]+$/.test(token);
}

/**
 * Everything that can be known about a token without the database: well-formed, and for a
 * `gh_live_` key the right length and a checksum that matches (compared in constant time).
 */
export function passesOfflineChecks(token: string): boolean {
  if (!isWellFormedApiKey(token)) return false;
  if (!token.startsWith(API_KEY_PREFIX)) return true;
  const rest = token.slice(API_KEY_PREFIX.length);
  if (rest.length === LEGACY_RANDOM_LENGTH && /^[0-9A-Za-z]+$/.test(rest)) return true;
  if (rest.length !== RANDOM_LENGTH + CHECKSUM_LENGTH || !/^[0-9A-Za-z]+$/.test(rest)) return false;
  const expected = Buffer.from(apiKeyChecksum(token.slice(0, -CHECKSUM_LENGTH)));
  return timingSafeEqual(expected, Buffer.from(token.slice(-CHECKSUM_LENGTH)));
}

/** Constant-time comparison of two hex hashes. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/** The last-used time is written at most this often per key: a write per request costs money. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Whether a use at `now` should be recorded, given the last one recorded. */
export function shouldRecordUse(lastUsedAt: string | undefined, now: Date): boolean {
  return lastUsedAt === undefined || now.getTime() - Date.parse(lastUsedAt) >= LAST_USED_RESOLUTION_MS;
}
