import { pageCursorKey } from '#shared/adapters/crypto/page-cursor-key';
import { invalidCursorError, openCursor, sealCursor } from '#shared/domain/page-cursor';

export { invalidCursorError } from '#shared/domain/page-cursor';

/**
 * Page cursors of DynamoDB listings: the last evaluated key, signed for the tenant and the listing
 * it belongs to (`scope`: the listing's name, partition and filters), see shared/domain/page-cursor.ts.
 * Only listings whose keys hold nothing secret hand out their last key as it is; the API key
 * listing, whose table key is a key hash, keeps the key id instead (api-key-repository.ts).
 */
type LastKey = Record<string, string>;

/** The signed cursor of the page after `lastKey`, or null on the last page. */
export async function encodeCursor(tenantId: string, scope: string, lastKey: Record<string, unknown> | undefined): Promise<string | null> {
  if (!lastKey) return null;
  const position = Object.fromEntries(Object.entries(lastKey).map(([name, value]) => [name, String(value)]));
  return sealCursor(await pageCursorKey(), { tenant: tenantId, list: scope }, position);
}

/**
 * The last key a cursor of this tenant's listing carries (undefined without a cursor); 400
 * `invalid_cursor` for a cursor that does not verify or does not point into `expected`'s partition.
 */
export async function decodeCursor(tenantId: string, scope: string, cursor: string | undefined, expected: { partitionAttribute: string; partition: string }): Promise<LastKey | undefined> {
  if (cursor === undefined) return undefined;
  const lastKey = openCursor(await pageCursorKey(), { tenant: tenantId, list: scope }, cursor);
  if (lastKey[expected.partitionAttribute] !== expected.partition) throw invalidCursorError();
  return lastKey;
}
