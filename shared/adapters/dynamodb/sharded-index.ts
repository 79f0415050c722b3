import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { GSI3 } from '#shared/adapters/dynamodb/table-definition';

/** Every item of a sparse gsi3 index spread over `shards` partition keys, shard by shard. */
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
      yield* page.Items ?? [];
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
}
