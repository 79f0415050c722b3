import { beforeAll, describe, expect, it } from 'vitest';
import { BatchIncompleteError, batchGetAll, batchWriteAll } from '#shared/adapters/dynamodb/batch';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { lastOne, partialBatchClient, secondHalf } from '../support/partial-batch-client';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const keyOf = (tenant: string, index: number) => ({ pk: `TENANT#${tenant}#BATCH#${index}`, sk: 'ITEM' });
const itemOf = (tenant: string, index: number) => ({ ...keyOf(tenant, index), index });
const range = (count: number) => Array.from({ length: count }, (_, index) => index);
const fastRetries = { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 5 };

/** What DynamoDB holds of the given indexes, read with the real client. */
async function storedIndexes(tenant: string, indexes: number[]): Promise<number[]> {
  const items = await batchGetAll(indexes.map((index) => keyOf(tenant, index)), { consistentRead: true });
  return items.map((item) => item.index as number).sort((a, b) => a - b);
}

describe('batch calls get everything or throw', () => {
  beforeAll(async () => {
    await provisionForTest('batch');
  });

  it('writes every put and every delete when DynamoDB leaves half of each call unprocessed', async () => {
    const tenant = uniqueTenant();
    const partial = partialBatchClient(documentClient(), secondHalf);

    await batchWriteAll(range(60).map((index) => ({ PutRequest: { Item: itemOf(tenant, index) } })), { client: partial.client });
    expect(await storedIndexes(tenant, range(60))).toEqual(range(60));

    await batchWriteAll(range(40).map((index) => ({ DeleteRequest: { Key: keyOf(tenant, index) } })), { client: partial.client });
    expect(await storedIndexes(tenant, range(60))).toEqual(range(60).slice(40));
    // The wrapper did hold back requests, in more calls than the three chunks.
    expect(partial.stats.withheld).toBeGreaterThan(0);
    expect(partial.stats.batchCalls).toBeGreaterThan(3 + 2);
  });

  it('reads every existing item of more than one chunk when half of each call comes back unprocessed', async () => {
    const tenant = uniqueTenant();
    await batchWriteAll(range(230).map((index) => ({ PutRequest: { Item: itemOf(tenant, index) } })));
    const partial = partialBatchClient(documentClient(), secondHalf);

    // 250 keys (20 never written), one named twice.
    const keys = [...range(250).map((index) => keyOf(tenant, index)), keyOf(tenant, 7)];
    const items = await batchGetAll(keys, { client: partial.client, consistentRead: true });

    expect(items.map((item) => item.index as number).sort((a, b) => a - b)).toEqual(range(230));
    expect(partial.stats.withheld).toBeGreaterThan(0);
  });

  it('throws, after the bounded attempts, when DynamoDB keeps part of a read unprocessed', async () => {
    const tenant = uniqueTenant();
    await batchWriteAll(range(5).map((index) => ({ PutRequest: { Item: itemOf(tenant, index) } })));
    const stubborn = partialBatchClient(documentClient(), lastOne);

    const read = batchGetAll(range(5).map((index) => keyOf(tenant, index)), { client: stubborn.client, policy: fastRetries });

    await expect(read).rejects.toBeInstanceOf(BatchIncompleteError);
    await expect(read).rejects.toMatchObject({ name: 'ThrottlingException', operation: 'BatchGetItem', unprocessed: 1 });
    expect(stubborn.stats.batchCalls).toBe(fastRetries.maxAttempts);
  });

  it('throws, after the bounded attempts, when DynamoDB keeps part of a write unprocessed', async () => {
    const tenant = uniqueTenant();
    const stubborn = partialBatchClient(documentClient(), lastOne);

    const write = batchWriteAll(range(3).map((index) => ({ PutRequest: { Item: itemOf(tenant, index) } })), { client: stubborn.client, policy: fastRetries });

    await expect(write).rejects.toMatchObject({ name: 'ThrottlingException', operation: 'BatchWriteItem', unprocessed: 1 });
    expect(stubborn.stats.batchCalls).toBe(fastRetries.maxAttempts);
    // What it could write is written; the caller learns that the rest is not.
    expect(await storedIndexes(tenant, range(3))).toEqual([0, 1]);
  });

  it('sends nothing for an empty batch', async () => {
    const partial = partialBatchClient(documentClient(), secondHalf);
    expect(await batchGetAll([], { client: partial.client })).toEqual([]);
    await batchWriteAll([], { client: partial.client });
    expect(partial.stats.batchCalls).toBe(0);
  });
});
