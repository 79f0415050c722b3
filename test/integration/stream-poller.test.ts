import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { StreamPoller, type StreamPollerOptions } from '#lib/local/streams/stream-poller';
import { provisionForTest } from '../support/provisioned';
import { recording, resetRecording } from '../support/recording-stream-handler';

const HANDLER = 'test/support/recording-stream-handler.ts';
const POLL_MS = 20;

let checkpointDir: string;
const pollers: StreamPoller[] = [];

function startPoller(tableName: string, options: Partial<StreamPollerOptions> = {}): StreamPoller {
  const poller = new StreamPoller({ endpoint: inject('engines').dynamodb, tableName, handler: HANDLER, pollMs: POLL_MS, retryDelayMs: 20, ...options });
  pollers.push(poller);
  poller.start();
  return poller;
}

/** Waits for a condition, failing the test after a bounded time instead of hanging it. */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function put(tableName: string, id: string, attributes: Record<string, unknown> = {}): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName, Item: { pk: `ITEM#${id}`, sk: 'ITEM', id, ...attributes } }));
}

async function putAll(tableName: string, ids: string[], attributes: Record<string, Record<string, unknown>> = {}): Promise<void> {
  for (const id of ids) await put(tableName, id, attributes[id]);
}

const idOf = (record: DynamoDBRecord) => record.dynamodb?.NewImage?.id?.S ?? record.dynamodb?.OldImage?.id?.S;
const processedIds = () => recording.processed.map(idOf);

async function freshTable(label: string): Promise<string> {
  return (await provisionForTest(`stream-${label}`)).tableName;
}

describe('the local DynamoDB Streams event-source mapping', () => {
  beforeAll(async () => {
    checkpointDir = await mkdtemp(join(tmpdir(), 'gatehouse-stream-checkpoints-'));
  });

  afterAll(async () => {
    await rm(checkpointDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    resetRecording();
  });

  afterEach(async () => {
    await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
    vi.restoreAllMocks();
  });

  it('delivers inserts, updates and deletes in order, in the event shape Lambda sends', async () => {
    const tableName = await freshTable('shape');
    const { Table } = await documentClient().send(new DescribeTableCommand({ TableName: tableName }));
    await putAll(tableName, ['a1', 'a2', 'a3']);
    await documentClient().send(new UpdateCommand({ TableName: tableName, Key: { pk: 'ITEM#a1', sk: 'ITEM' }, UpdateExpression: 'SET payload = :payload', ExpressionAttributeValues: { ':payload': Uint8Array.from([1, 2, 3]) } }));
    await documentClient().send(new DeleteCommand({ TableName: tableName, Key: { pk: 'ITEM#a2', sk: 'ITEM' } }));

    startPoller(tableName, { batchSize: 2 });
    await waitFor(() => recording.processed.length >= 5, 'five records');

    const records = recording.processed;
    expect(records.map((record) => [record.eventName, idOf(record)])).toEqual([
      ['INSERT', 'a1'],
      ['INSERT', 'a2'],
      ['INSERT', 'a3'],
      ['MODIFY', 'a1'],
      ['REMOVE', 'a2'],
    ]);
    expect(records[0]).toEqual({
      eventID: expect.any(String),
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: Table!.LatestStreamArn,
      dynamodb: {
        ApproximateCreationDateTime: expect.any(Number),
        Keys: { pk: { S: 'ITEM#a1' }, sk: { S: 'ITEM' } },
        NewImage: { pk: { S: 'ITEM#a1' }, sk: { S: 'ITEM' }, id: { S: 'a1' } },
        SequenceNumber: expect.stringMatching(/^\d+$/),
        SizeBytes: expect.any(Number),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    });
    // Epoch seconds, as Lambda sends it, not milliseconds.
    expect(Math.abs(records[0].dynamodb!.ApproximateCreationDateTime! - Date.now() / 1000)).toBeLessThan(600);
    // Images stay AttributeValue maps; binary travels as base64, as in Lambda's JSON event.
    expect(records[3].dynamodb).toMatchObject({ OldImage: { id: { S: 'a1' } }, NewImage: { id: { S: 'a1' }, payload: { B: Buffer.from([1, 2, 3]).toString('base64') } } });
    expect(records[3].dynamodb!.OldImage).not.toHaveProperty('payload');
    expect(records[4].dynamodb).toMatchObject({ Keys: { pk: { S: 'ITEM#a2' } }, OldImage: { id: { S: 'a2' } } });
    expect(records[4].dynamodb).not.toHaveProperty('NewImage');
    const sequence = records.map((record) => BigInt(record.dynamodb!.SequenceNumber!));
    expect(sequence).toEqual([...sequence].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(recording.invocations.map((batch) => batch.length)).toEqual([2, 2, 1]);
  });

  it('gathers records written one after another into one invocation within the batching window', async () => {
    const tableName = await freshTable('window');
    startPoller(tableName, { maxBatchingWindowMs: 3_000 });
    await sleep(100);
    for (const id of ['w1', 'w2', 'w3', 'w4']) {
      await put(tableName, id);
      await sleep(50);
    }

    await waitFor(() => recording.processed.length >= 4, 'four records');
    expect(processedIds()).toEqual(['w1', 'w2', 'w3', 'w4']);
    expect(recording.invocations).toHaveLength(1);
  });

  it('invokes as soon as a batch is full, without waiting out the window', async () => {
    const tableName = await freshTable('window-full');
    startPoller(tableName, { batchSize: 3, maxBatchingWindowMs: 60_000 });
    await putAll(tableName, ['f1', 'f2', 'f3']);

    // The window is a minute; a full batch must arrive well before it closes.
    await waitFor(() => recording.processed.length >= 3, 'a full batch', 15_000);
    expect(processedIds()).toEqual(['f1', 'f2', 'f3']);
  });

  it('drops records the filter rejects before the handler, and consumes them', async () => {
    const tableName = await freshTable('filter');
    const checkpointFile = join(checkpointDir, 'filter.json');
    await put(tableName, 'e1', { entity: 'event' });
    await put(tableName, 't1', { entity: 'task' });
    await documentClient().send(new UpdateCommand({ TableName: tableName, Key: { pk: 'ITEM#e1', sk: 'ITEM' }, UpdateExpression: 'SET seen = :yes', ExpressionAttributeValues: { ':yes': true } }));
    await put(tableName, 'e2', { entity: 'event' });
    await put(tableName, 't2', { entity: 'task' });
    const onlyEventInserts = (record: DynamoDBRecord) => record.eventName === 'INSERT' && record.dynamodb?.NewImage?.entity?.S === 'event';

    const filtered = startPoller(tableName, { filter: onlyEventInserts, checkpointFile });
    await waitFor(() => recording.processed.length >= 2, 'the two event inserts');
    await sleep(10 * POLL_MS);
    await filtered.stop();

    expect(processedIds()).toEqual(['e1', 'e2']);
    expect(recording.invocations.flat().every(onlyEventInserts)).toBe(true);

    // The trailing task record was consumed too: an unfiltered poller resuming there sees only new records.
    resetRecording();
    await put(tableName, 'e3', { entity: 'event' });
    startPoller(tableName, { checkpointFile });
    await waitFor(() => recording.processed.length >= 1, 'the record written after the filtered run');
    await sleep(10 * POLL_MS);

    expect(processedIds()).toEqual(['e3']);
  });

  it('retries from a reported failure without losing or reordering the records after it', async () => {
    const tableName = await freshTable('partial');
    await putAll(tableName, ['r1', 'r2', 'r3', 'r4', 'r5'], { r3: { fail: 2 } });

    startPoller(tableName, { batchSize: 10 });
    await waitFor(() => recording.processed.length >= 5, 'all five records');
    await sleep(10 * POLL_MS);

    expect(processedIds()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    // The first batch is checkpointed up to r2; both retries start at the failed record.
    expect(recording.invocations.map((batch) => batch.map(idOf))).toEqual([
      ['r1', 'r2', 'r3', 'r4', 'r5'],
      ['r3', 'r4', 'r5'],
      ['r3', 'r4', 'r5'],
    ]);
  });

  it('retries the whole batch when the handler throws', async () => {
    const tableName = await freshTable('throw');
    await putAll(tableName, ['x1', 'x2', 'x3'], { x2: { throw: 1 } });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    startPoller(tableName);
    await waitFor(() => recording.processed.length >= 3, 'all three records');

    expect(processedIds()).toEqual(['x1', 'x2', 'x3']);
    expect(recording.invocations.map((batch) => batch.map(idOf))).toEqual([
      ['x1', 'x2', 'x3'],
      ['x1', 'x2', 'x3'],
    ]);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('"message":"stream handler failed; batch will be retried"'));
  });

  it('bisects a batch that keeps failing, then skips its poison record with an ERROR line', async () => {
    const tableName = await freshTable('poison');
    await putAll(tableName, ['p1', 'ok1', 'ok2'], { p1: { fail: 'always' } });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    startPoller(tableName, { maxAttempts: 3 });
    await waitFor(() => recording.processed.length >= 2, 'the records after the poison one');
    await sleep(10 * POLL_MS);

    expect(processedIds()).toEqual(['ok1', 'ok2']);
    // Three tries of the whole batch, one of its first half, then the rest without p1.
    expect(recording.invocations.map((batch) => batch.map(idOf))).toEqual([
      ['p1', 'ok1', 'ok2'],
      ['p1', 'ok1', 'ok2'],
      ['p1', 'ok1', 'ok2'],
      ['p1', 'ok1'],
      ['ok1', 'ok2'],
    ]);
    const skipped = errors.mock.calls.map(([line]) => JSON.parse(String(line))).filter((line) => line.message === 'stream record failed every try; skipped');
    expect(skipped).toEqual([expect.objectContaining({ level: 'ERROR', keys: { pk: { S: 'ITEM#p1' }, sk: { S: 'ITEM' } }, attempts: 4, sequenceNumber: recording.invocations[0][0].dynamodb!.SequenceNumber })]);
  });

  it('checkpoints the first half when it succeeds after bisecting, then isolates the poison record in the rest', async () => {
    const tableName = await freshTable('bisect');
    await putAll(tableName, ['b1', 'b2', 'p2'], { p2: { throw: 'always' } });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    startPoller(tableName, { maxAttempts: 2 });
    await waitFor(() => errors.mock.calls.some(([line]) => String(line).includes('skipped')), 'the poison record to be skipped');
    await put(tableName, 'b3');
    await waitFor(() => recording.processed.length >= 3, 'the records around the poison one');

    expect(processedIds()).toEqual(['b1', 'b2', 'b3']);
    // Two thrown tries of the batch, its first half succeeds alone, the rest (p2 alone) fails twice
    // and is skipped without bisecting a single record, and the stream goes on.
    expect(recording.invocations.map((batch) => batch.map(idOf))).toEqual([['b1', 'b2', 'p2'], ['b1', 'b2', 'p2'], ['b1', 'b2'], ['p2'], ['p2'], ['b3']]);
  });

  it('resumes after the checkpoint when restarted: nothing processed twice, nothing lost', async () => {
    const tableName = await freshTable('resume');
    const checkpointFile = join(checkpointDir, 'resume.json');
    await putAll(tableName, ['c1', 'c2', 'c3']);

    const first = startPoller(tableName, { checkpointFile, batchSize: 2 });
    await waitFor(() => recording.processed.length >= 3, 'the first three records');
    await first.stop();
    await putAll(tableName, ['c4', 'c5']);
    const second = startPoller(tableName, { checkpointFile, batchSize: 2 });
    await waitFor(() => recording.processed.length >= 5, 'the records written while stopped');
    await sleep(10 * POLL_MS);
    await second.stop();

    expect(processedIds()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    const checkpoint = JSON.parse(await readFile(checkpointFile, 'utf8'));
    expect(Object.values(checkpoint)).toEqual([recording.processed[4].dynamodb!.SequenceNumber]);
  });

  it('starts at LATEST without a checkpoint: records written before it started are not delivered', async () => {
    const tableName = await freshTable('latest');
    await put(tableName, 'old');
    const reads = vi.spyOn(DynamoDBStreamsClient.prototype, 'send');

    startPoller(tableName, { startingPosition: 'LATEST' });
    await waitFor(() => reads.mock.calls.some(([command]) => command instanceof GetRecordsCommand), 'the poller to read its shard');
    await put(tableName, 'new');
    await waitFor(() => recording.processed.length >= 1, 'the new record');
    await sleep(10 * POLL_MS);

    expect(processedIds()).toEqual(['new']);
  });
});
