import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { tableItemsOf } from '#shared/adapters/dynamodb/index-items';
import { GSI3 } from '#shared/adapters/dynamodb/table-definition';

/**
 * Every item of a sparse gsi3 index spread over `shards` partition keys, shard by shard, read
 * whole from the table: gsi3 copies only a few attributes (so frequent updates don't rewrite it),
 * and its readers (the stuck-work sweeper above all) judge items by fields it does not copy.
 */
export async function* itemsOfShardedIndex(partitionOf: (shard: number) => string, shards: number): AsyncGenerator<Record<string, NativeAttributeValue>> {
  for (let shard = 0; shard < shards; shard++) {
    let startKey: Record<string, NativeAttributeValue> | undefined;
    do {
      const page = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: GSI3.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': GSI3.partitionKey },
          ExpressionAttributeValues: { ':pk': partitionOf(shard) },
          ExclusiveStartKey: startKey,
        }),
      );
      yield* await tableItemsOf(page.Items ?? []);
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
}
