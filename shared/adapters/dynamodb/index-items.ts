import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { batchGetAll } from '#shared/adapters/dynamodb/batch';
import { TABLE_KEYS } from '#shared/adapters/dynamodb/table-definition';

type Item = Record<string, NativeAttributeValue>;

const keyOf = (item: Item) => `${item[TABLE_KEYS.partitionKey]}\u0000${item[TABLE_KEYS.sortKey]}`;

/**
 * The table items behind entries of an index that copies only some attributes, in the entries'
 * order. Items deleted since the index was read are left out. Eventually consistent reads, as the
 * index itself is: half a read unit per item up to 4 KB.
 */
export async function tableItemsOf(entries: readonly Item[]): Promise<Item[]> {
  const keys = entries.map((entry) => ({ [TABLE_KEYS.partitionKey]: entry[TABLE_KEYS.partitionKey], [TABLE_KEYS.sortKey]: entry[TABLE_KEYS.sortKey] }));
  const found = new Map((await batchGetAll(keys)).map((item) => [keyOf(item), item]));
  return entries.flatMap((entry) => found.get(keyOf(entry)) ?? []);
}
