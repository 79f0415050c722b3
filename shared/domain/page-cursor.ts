import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { InvalidRequestError } from '#shared/domain/errors';

/**
 * Opaque, signed page cursors. A cursor is `c1.<position>.<tag>`: the position where the next page
 * starts (the last item's non-secret key parts, JSON, base64url) and an HMAC-SHA256 tag over the
 * format version, the tenant, the listing (its name and filters) and the position. A cursor edited
 * by hand, made up, or handed out by another listing or tenant does not verify and is 400
 * `invalid_cursor`: nothing of it reaches the database. The position is signed, not encrypted, so
 * a listing puts in it only what its caller may see (ids, timestamps), never key material.
 */
export interface CursorBinding {
  /** The tenant whose listing handed the cursor out. */
  tenant: string;
  /** The listing and its filters, e.g. `tasks|status=queued`. */
  list: string;
}

/** Where the next page starts: a few short strings, e.g. the last item's key attributes or its id. */
export type CursorPosition = Record<string, string>;

const VERSION = 'c1';
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const MAX_ENTRIES = 6;
const MAX_VALUE_LENGTH = 1024;
const MAX_CURSOR_LENGTH = 4096;

/** Derives the cursor signing key from a deployment secret (HKDF-SHA256), apart from any other use of it. */
export function derivePageCursorKey(secret: Uint8Array): Buffer {
  if (secret.length < KEY_BYTES) throw new RangeError(`A page cursor key needs a secret of at least ${KEY_BYTES} bytes.`);
  return Buffer.from(hkdfSync('sha256', secret, 'gatehouse', 'gatehouse page cursor v1', KEY_BYTES));
}

/** The 400 of a cursor that is not one this listing handed out. */
export function invalidCursorError(): InvalidRequestError {
  return new InvalidRequestError('The cursor is not valid for this listing.', [{ path: 'cursor', message: 'Pass the next_cursor of the previous page unchanged, with the same filters.' }], 'invalid_cursor');
}

function tagOf(key: Uint8Array, binding: CursorBinding, payload: string): Buffer {
  // JSON keeps the fields apart: tenant `a|b` + list `c` never signs like tenant `a` + list `b|c`.
  const signed = JSON.stringify([VERSION, binding.tenant, binding.list, payload]);
  return createHmac('sha256', key).update(signed, 'utf8').digest().subarray(0, TAG_BYTES);
}

function isPosition(value: unknown): value is CursorPosition {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.length <= MAX_ENTRIES && entries.every(([, item]) => typeof item === 'string' && item.length <= MAX_VALUE_LENGTH);
}

/** Signs `position` for the listing `binding`. */
export function sealCursor(key: Uint8Array, binding: CursorBinding, position: CursorPosition): string {
  if (!isPosition(position)) throw new TypeError('A cursor position is 1 to 6 short strings.');
  const payload = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
  return `${VERSION}.${payload}.${tagOf(key, binding, payload).toString('base64url')}`;
}

/** The position a cursor of this listing carries; InvalidRequestError `invalid_cursor` for anything else. */
export function openCursor(key: Uint8Array, binding: CursorBinding, cursor: string): CursorPosition {
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalidCursorError();
  const parts = cursor.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) throw invalidCursorError();
  const [, payload, tag] = parts;
  const given = Buffer.from(tag, 'base64url');
  // base64url decoding skips what it does not know: compare the canonical re-encoding too.
  if (given.length !== TAG_BYTES || given.toString('base64url') !== tag) throw invalidCursorError();
  if (!timingSafeEqual(given, tagOf(key, binding, payload))) throw invalidCursorError();
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursorError();
  }
  if (!isPosition(position)) throw invalidCursorError();
  return position;
}
