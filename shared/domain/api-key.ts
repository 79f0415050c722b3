import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `gh_live_<32 base62 chars>`: a recognisable prefix (so secret scanners and
 * people can tell what leaked) and enough entropy that storing only a SHA-256 hash is safe.
 */
export const API_KEY_PREFIX = 'gh_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface ApiKeyRecord {
  key_id: string;
  tenant_id: string;
  key_hash: string;
  /** First characters of the key, enough to recognise it in a list. */
  display_prefix: string;
  created_at: string;
  revoked_at?: string;
  last_used_at?: string;
}

export function generateApiKey(): string {
  const bytes = randomBytes(32);
  let body = '';
  for (const byte of bytes) body += BASE62[byte % 62];
  return `${API_KEY_PREFIX}${body}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Only well-formed tokens are looked up; anything else is rejected without a database call. */
export function isWellFormedApiKey(token: string): boolean {
  return token.length >= 1 && token.length <= 256 && /^[A-Za-z0-9_\-.]+$/.test(token);
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
