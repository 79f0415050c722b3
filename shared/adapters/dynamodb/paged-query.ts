import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { tableItemsOf } from '#shared/adapters/dynamodb/index-items';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';

type Item = Record<string, NativeAttributeValue>;
type PageInput = Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>;

/**
 * One page of up to `limit` items. Filters apply after DynamoDB reads, so it asks again until the
 * page is full; each round reads at most the items still missing, so every item read is either
 * returned or filtered out, and the last evaluated key is a correct resume point. `fromTable`
 * reads the listed items from the table (for an index that does not copy them whole).
 */
export async function queryPage<T>(
  input: PageInput,
  limit: number,
  startKey: Item | undefined,
  options: { fromTable?: boolean } = {},
): Promise<{ items: T[]; lastKey: Item | undefined }> {
  const items: T[] = [];
  let lastKey = startKey;
  for (let round = 0; round < 25 && items.length < limit; round++) {
    const page = await documentClient().send(new QueryCommand({ ...input, Limit: limit - items.length, ExclusiveStartKey: lastKey }));
    // An index that copies only some attributes lists keys; the items themselves are read from the table.
    const found = options.fromTable ? await tableItemsOf(page.Items ?? []) : (page.Items ?? []);
    items.push(...found.map((item) => stripKeys<T>(item)));
    lastKey = page.LastEvaluatedKey;
    if (!lastKey) break;
  }
  return { items, lastKey };
}

/** Every item the query matches, page after page (for small, bounded partitions). */
export async function queryAll<T>(input: PageInput): Promise<T[]> {
  const items: T[] = [];
  let startKey: Item | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []).map((item) => stripKeys<T>(item)));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
