import { InvalidRequestError } from '#shared/domain/errors';

/**
 * Opaque page cursors. A cursor carries DynamoDB's last evaluated key and the listing it belongs
 * to (`scope`: the partition plus the filters). A cursor from another listing, another tenant, or
 * edited by hand is a 400, never a query that DynamoDB would reject with a 500.
 */
type LastKey = Record<string, string>;

export function encodeCursor(scope: string, lastKey: Record<string, unknown> | undefined): string | null {
  if (!lastKey) return null;
  return Buffer.from(JSON.stringify({ s: scope, k: lastKey }), 'utf8').toString('base64url');
}

/** The 400 of a cursor that is not one this listing handed out. */
export function invalidCursorError(): InvalidRequestError {
  return new InvalidRequestError('The cursor is not valid for this listing.', [{ path: 'cursor', message: 'Pass the next_cursor of the previous page unchanged, with the same filters.' }], 'invalid_cursor');
}

export function decodeCursor(scope: string, cursor: string | undefined, expected: { partitionAttribute: string; partition: string }): LastKey | undefined {
  if (cursor === undefined) return undefined;
  const invalid = invalidCursorError;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { s, k } = parsed as { s?: unknown; k?: unknown };
  if (s !== scope || typeof k !== 'object' || k === null || Array.isArray(k)) throw invalid();
  const entries = Object.entries(k as Record<string, unknown>);
  if (entries.length === 0 || entries.length > 4 || entries.some(([, value]) => typeof value !== 'string' || value.length > 1024)) throw invalid();
  const lastKey = k as LastKey;
  if (lastKey[expected.partitionAttribute] !== expected.partition) throw invalid();
  return lastKey;
}
