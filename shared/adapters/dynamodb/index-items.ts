import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { TABLE_KEYS } from '#shared/adapters/dynamodb/table-definition';

type Item = Record<string, NativeAttributeValue>;

const keyOf = (item: Item) => `${item[TABLE_KEYS.partitionKey]}\u0000${item[TABLE_KEYS.sortKey]}`;

/**
 * The table items behind entries of an index that copies only some attributes, in the entries'
 * order. Items deleted since the index was read are left out. Eventually consistent reads, as the
 * index itself is: half a read unit per item up to 4 KB.
 */
export async function tableItemsOf(entries: readonly Item[]): Promise<Item[]> {
  const found = new Map<string, Item>();
  const table = tableName();
  for (let offset = 0; offset < entries.length; offset += 100) {
    let keys: Item[] | undefined = entries.slice(offset, offset + 100).map((entry) => ({ [TABLE_KEYS.partitionKey]: entry[TABLE_KEYS.partitionKey], [TABLE_KEYS.sortKey]: entry[TABLE_KEYS.sortKey] }));
    // BatchGet may return part of the answer under load; ask again for the rest, a bounded number of times.
    for (let attempt = 0; keys && keys.length > 0; attempt++) {
      if (attempt === 8) throw new Error('BatchGetItem left keys unprocessed after 8 attempts.');
      const result: BatchGetCommandOutput = await documentClient().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys } } }));
      for (const item of result.Responses?.[table] ?? []) found.set(keyOf(item), item);
      keys = result.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return entries.flatMap((entry) => found.get(keyOf(entry)) ?? []);
}
