import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { fullJitterBackoff, type RetryPolicy } from '#shared/adapters/dynamodb/backoff';

type Item = Record<string, NativeAttributeValue>;

/** One request of a BatchWriteItem call. */
export type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

/** How often and how long to wait before asking DynamoDB again for what it left unprocessed (calls per chunk, the first included). */
export type BatchRetryPolicy = RetryPolicy;

export const BATCH_RETRY_POLICY: BatchRetryPolicy = { maxAttempts: 10, baseDelayMs: 20, maxDelayMs: 1_000 };

export interface BatchOptions {
  /** Defaults to the process's client; tests pass a wrapper of it. */
  client?: DynamoDBDocumentClient;
  /** Defaults to the single table. */
  table?: string;
  policy?: Partial<BatchRetryPolicy>;
}

// DynamoDB's limits per call.
const GET_CHUNK = 100;
const WRITE_CHUNK = 25;

/**
 * DynamoDB kept part of a batch unprocessed through every retry. Named as DynamoDB names
 * throttling, so callers treat it as the transient overload it is (503, message retried).
 */
export class BatchIncompleteError extends Error {
  override readonly name = 'ThrottlingException';

  constructor(
    readonly operation: 'BatchGetItem' | 'BatchWriteItem',
    readonly unprocessed: number,
    attempts: number,
  ) {
    super(`${operation} left ${unprocessed} request(s) unprocessed after ${attempts} attempts; the call fails whole rather than answer in part.`);
  }
}

/** Sends each chunk, then only its leftovers, until none are left or the attempts run out. */
async function inChunks<R>(
  operation: BatchIncompleteError['operation'],
  requests: readonly R[],
  size: number,
  policy: Partial<BatchRetryPolicy> | undefined,
  sendOnce: (chunk: R[]) => Promise<R[]>,
): Promise<void> {
  const effective = { ...BATCH_RETRY_POLICY, ...policy };
  for (let offset = 0; offset < requests.length; offset += size) {
    let left = requests.slice(offset, offset + size);
    for (let attempt = 1; ; attempt++) {
      left = await sendOnce(left);
      if (left.length === 0) break;
      if (attempt >= effective.maxAttempts) throw new BatchIncompleteError(operation, left.length, attempt);
      await fullJitterBackoff(attempt - 1, effective);
    }
  }
}

const keyId = (key: Item) => JSON.stringify(Object.entries(key).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * Every existing item among `keys` (missing ones are simply absent), in no particular order.
 * Chunks of 100 keys; unprocessed keys are asked again with backoff, and if some are still
 * left after the last attempt it throws: a partial answer is never returned as a whole one.
 */
export async function batchGetAll(keys: readonly Item[], options: BatchOptions & { consistentRead?: boolean } = {}): Promise<Item[]> {
  const client = options.client ?? documentClient();
  const table = options.table ?? tableName();
  // DynamoDB rejects a call that names one key twice.
  const unique = [...new Map(keys.map((key) => [keyId(key), key])).values()];
  const found: Item[] = [];
  await inChunks('BatchGetItem', unique, GET_CHUNK, options.policy, async (chunk) => {
    const result = await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: chunk, ...(options.consistentRead ? { ConsistentRead: true } : {}) } } }));
    found.push(...(result.Responses?.[table] ?? []));
    return result.UnprocessedKeys?.[table]?.Keys ?? [];
  });
  return found;
}

/**
 * Applies every put and delete, in chunks of 25 (not atomically: each request on its own).
 * Unprocessed requests are sent again with backoff; throws if some are still left after the last
 * attempt, so a caller never goes on as if all were written.
 */
export async function batchWriteAll(requests: readonly WriteRequest[], options: BatchOptions = {}): Promise<void> {
  const client = options.client ?? documentClient();
  const table = options.table ?? tableName();
  await inChunks('BatchWriteItem', requests, WRITE_CHUNK, options.policy, async (chunk) => {
    const result = await client.send(new BatchWriteCommand({ RequestItems: { [table]: chunk } }));
    return (result.UnprocessedItems?.[table] ?? []) as WriteRequest[];
  });
}
