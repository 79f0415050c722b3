import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type AttributeValue as SdkAttributeValue,
  type ShardIteratorType,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';

export type StartingPosition = 'TRIM_HORIZON' | 'LATEST';

export interface StreamPollerOptions {
  /** DynamoDB Local's endpoint; its streams API answers on the same one. */
  endpoint: string;
  tableName: string;
  /** Handler file, relative to the repository root (as in the CDK stack). */
  handler: string;
  /** Like the mapping's FilterCriteria: records it rejects never reach the handler but are consumed. */
  filter?: (record: DynamoDBRecord) => boolean;
  /** Most records per invocation (default 100, Lambda's default for streams). */
  batchSize?: number;
  /**
   * Like the mapping's MaximumBatchingWindowInSeconds: how long records are gathered before an
   * invocation that is not full (default 0: invoke as soon as records are read).
   */
  maxBatchingWindowMs?: number;
  /** Where `{ [shardId]: lastSequenceNumber }` is kept between runs; without it every start is fresh. */
  checkpointFile?: string;
  /** Delay between polls of an idle stream (default 200 ms; Lambda polls a shard four times a second). */
  pollMs?: number;
  /** Where shards without a checkpoint start (default TRIM_HORIZON). */
  startingPosition?: StartingPosition;
  /** Failed tries of one batch before it is bisected, and then its poison record skipped (default 5). */
  maxAttempts?: number;
  /** Delay before the first retry of a failed batch, doubled per further failure up to 5 s (default 200 ms). */
  retryDelayMs?: number;
  /** The handler's Lambda timeout, for its context (default 30 s). */
  timeoutSeconds?: number;
}

const REGION = 'us-east-1';
const MAX_RETRY_DELAY_MS = 5_000;
/** Shards split every few hours on AWS; looking for new ones every few seconds is plenty locally. */
const DISCOVERY_INTERVAL_MS = 5_000;
const ERROR_DELAY_MS = 1_000;
/**
 * Records read per GetRecords (DynamoDB's maximum). The batch size counts only records the filter
 * lets through, as on AWS, where FilterCriteria apply before batching; reading just `batchSize`
 * records of a table whose stream is mostly other writes made batches a fraction of that size,
 * and the consumer fell behind the table.
 */
const READ_LIMIT = 1_000;

interface ShardState {
  id: string;
  parentId?: string;
  /** Listed by the first DescribeStream: such a shard starts at the starting position; later ones at TRIM_HORIZON. */
  initial: boolean;
  status: 'waiting' | 'reading' | 'done';
  /** `undefined`: to be (re)opened; `null`: the shard is closed and read to its end. */
  iterator: string | null | undefined;
  /** Records read and not yet checkpointed, in stream order, filtered-out ones included. */
  buffer: DynamoDBRecord[];
  /** When the first record of the buffer was read: the batching window runs from there. */
  bufferedAt: number;
  /** Sequence number of the record the current run of failures starts at, and how many tries failed. */
  failedHead?: string;
  failures: number;
  /** The next try delivers only the first half of the batch. */
  bisected: boolean;
  retryAt: number;
}

interface Outcome {
  /** Index in the delivered batch of the first record that failed; absent when the batch succeeded. */
  failedAt?: number;
  reason?: string;
}

/**
 * Plays Lambda's DynamoDB Streams event-source mapping for one handler against DynamoDB Local.
 *
 * - Reads every shard of the table's latest stream, a child shard only once its parent is read to
 *   its end (so order per item holds across shard splits), and invokes the handler with a real
 *   `DynamoDBStreamEvent` (images stay AttributeValue maps, binary as base64, as Lambda sends them).
 * - `filter` drops records before batching, like FilterCriteria; dropped records are consumed.
 * - ReportBatchItemFailures: the batch is checkpointed up to the record before the lowest reported
 *   failure and retried from that record; a thrown error, or a reported identifier that is not a
 *   sequence number of the batch, retries the whole batch. Retries wait 200 ms, 400 ms, … up to 5 s
 *   (`retryDelayMs`), per shard, without holding up other shards.
 * - After `maxAttempts` failed tries starting at the same record, the batch is bisected once: the
 *   next try delivers only its first half. If that half succeeds it is checkpointed and the rest
 *   becomes a new batch with a fresh count (so a poison record in the second half is found the same
 *   way). If it fails at its first record (reported, or thrown) that record is the poison record: it
 *   is logged at ERROR with its keys and sequence number (standing in for an on-failure
 *   destination) and skipped. A single-record batch skips its record after `maxAttempts` tries
 *   without bisecting. Unlike Lambda, which discards the whole batch when retries run out, only one
 *   record is ever skipped per exhausted run — though after a thrown error that record is a guess.
 * - Checkpoints `{ [shardId]: lastSequenceNumber }` to `checkpointFile` (temp file + rename) whenever
 *   records are done, and resumes AFTER_SEQUENCE_NUMBER of it: at-least-once, a record may be
 *   delivered again after a crash but is never lost while the stream retains it. Failure counts
 *   live in memory only.
 * - Shards without a checkpoint start at `startingPosition` if listed when the poller started (with
 *   LATEST, at TRIM_HORIZON when an ancestor has a checkpoint: that lineage was being read), and at
 *   TRIM_HORIZON when they appeared later, since everything in them is new.
 */
export class StreamPoller {
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly startingPosition: StartingPosition;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;
  private readonly timeoutSeconds: number;
  private readonly functionName: string;

  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private wake?: () => void;
  private dynamodb?: DynamoDBClient;
  private streams?: DynamoDBStreamsClient;
  private streamArn?: string;
  private checkpoint: Record<string, string> = {};
  private checkpointLoaded = false;
  private readonly shards = new Map<string, ShardState>();
  private discoveredAt = 0;

  constructor(private readonly options: StreamPollerOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.pollMs = options.pollMs ?? 200;
    this.startingPosition = options.startingPosition ?? 'TRIM_HORIZON';
    this.maxAttempts = options.maxAttempts ?? 5;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.timeoutSeconds = options.timeoutSeconds ?? 30;
    this.functionName = basename(options.handler, extname(options.handler));
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > 10_000) throw new RangeError(`batchSize must be an integer from 1 to 10000, got ${this.batchSize}.`);
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${this.maxAttempts}.`);
  }

  /** Starts polling in the background; errors are logged and retried, never thrown. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    this.dynamodb = withoutSdkLogger(new DynamoDBClient({ endpoint: this.options.endpoint, region: REGION, credentials }));
    this.streams = withoutSdkLogger(new DynamoDBStreamsClient({ endpoint: this.options.endpoint, region: REGION, credentials }));
    this.loopDone = this.loop();
  }

  /** Stops polling and waits for the batch in flight to finish and be checkpointed. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loopDone;
    this.dynamodb?.destroy();
    this.streams?.destroy();
    this.dynamodb = undefined;
    this.streams = undefined;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let worked = false;
      let failed = false;
      try {
        await this.prepare();
        for (const shard of this.readableShards()) {
          if (!this.running) break;
          if (shard.retryAt > Date.now()) continue;
          if (await this.step(shard)) worked = true;
        }
      } catch (error) {
        failed = true;
        if (this.running) log('ERROR', 'stream poll failed', { table: this.options.tableName, error: String(error) });
      }
      if (!worked && this.running) await this.sleep(failed ? Math.max(this.pollMs, ERROR_DELAY_MS) : this.pollMs);
    }
  }

  private async prepare(): Promise<void> {
    if (!this.checkpointLoaded) {
      this.checkpoint = await readCheckpoint(this.options.checkpointFile);
      this.checkpointLoaded = true;
    }
    if (!this.streamArn) {
      const { Table } = await this.dynamodb!.send(new DescribeTableCommand({ TableName: this.options.tableName }));
      if (!Table?.LatestStreamArn) throw new Error(`Table ${this.options.tableName} has no stream.`);
      this.streamArn = Table.LatestStreamArn;
    }
    if (Date.now() - this.discoveredAt >= DISCOVERY_INTERVAL_MS) await this.discoverShards();
  }

  private async discoverShards(): Promise<void> {
    const initial = this.discoveredAt === 0;
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await this.streams!.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: exclusiveStartShardId }));
      for (const shard of StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || this.shards.has(shard.ShardId)) continue;
        this.shards.set(shard.ShardId, { id: shard.ShardId, parentId: shard.ParentShardId, initial, status: 'waiting', iterator: undefined, buffer: [], bufferedAt: 0, failures: 0, bisected: false, retryAt: 0 });
      }
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    this.discoveredAt = Date.now();
  }

  /** Shards being read, and waiting shards whose parent is read to its end (or trimmed away). */
  private readableShards(): ShardState[] {
    const readable: ShardState[] = [];
    for (const shard of this.shards.values()) {
      if (shard.status === 'done') continue;
      if (shard.status === 'waiting') {
        const parent = shard.parentId === undefined ? undefined : this.shards.get(shard.parentId);
        if (parent && parent.status !== 'done') continue;
        shard.status = 'reading';
      }
      readable.push(shard);
    }
    return readable;
  }

  /** One round for a shard: read a batch if none is pending, then deliver. True if records moved. */
  private async step(shard: ShardState): Promise<boolean> {
    if (shard.buffer.length === 0) {
      if (shard.iterator === undefined) shard.iterator = await this.openIterator(shard);
      if (shard.iterator === null) {
        shard.status = 'done';
        // Its children may be listed already; look again soon in case they are not.
        this.discoveredAt = 0;
        return false;
      }
      shard.buffer = await this.read(shard, READ_LIMIT);
      if (shard.buffer.length === 0) return false;
      shard.bufferedAt = Date.now();
    }
    if (this.gathering(shard)) {
      // Inside the batching window: add what arrived since, and invoke once it is full or the window closes.
      shard.buffer.push(...(await this.read(shard, READ_LIMIT)));
      if (this.gathering(shard)) return false;
    }
    await this.deliver(shard);
    return true;
  }

  /** True while a fresh batch (not a retry) is neither full nor older than the batching window. */
  private gathering(shard: ShardState): boolean {
    const windowMs = this.options.maxBatchingWindowMs ?? 0;
    return (
      windowMs > 0 &&
      typeof shard.iterator === 'string' &&
      shard.failures === 0 &&
      shard.failedHead === undefined &&
      !shard.bisected &&
      this.matching(shard.buffer).length < this.batchSize &&
      shard.buffer.length < READ_LIMIT &&
      Date.now() - shard.bufferedAt < windowMs
    );
  }

  private async openIterator(shard: ShardState): Promise<string | null> {
    // Resume after what is buffered (an iterator can expire while a batch is retried) or checkpointed.
    const after = shard.buffer.at(-1)?.dynamodb?.SequenceNumber ?? this.checkpoint[shard.id];
    if (after) {
      try {
        return await this.getIterator(shard.id, 'AFTER_SEQUENCE_NUMBER', after);
      } catch (error) {
        if (!(error instanceof TrimmedDataAccessException)) throw error;
        log('ERROR', 'stream checkpoint is older than the stream retains; records after it were lost, resuming at TRIM_HORIZON', { shardId: shard.id, sequenceNumber: after });
        return this.getIterator(shard.id, 'TRIM_HORIZON');
      }
    }
    const position = !shard.initial || this.ancestorCheckpointed(shard) ? 'TRIM_HORIZON' : this.startingPosition;
    return this.getIterator(shard.id, position);
  }

  private ancestorCheckpointed(shard: ShardState): boolean {
    for (let id = shard.parentId; id !== undefined; id = this.shards.get(id)?.parentId) {
      if (this.checkpoint[id] !== undefined) return true;
    }
    return false;
  }

  private async getIterator(shardId: string, type: ShardIteratorType, sequenceNumber?: string): Promise<string | null> {
    const { ShardIterator } = await this.streams!.send(
      new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequenceNumber }),
    );
    return ShardIterator ?? null;
  }

  private matching(records: DynamoDBRecord[]): DynamoDBRecord[] {
    const filter = this.options.filter;
    return filter ? records.filter((record) => filter(record)) : records;
  }

  private async read(shard: ShardState, limit: number): Promise<DynamoDBRecord[]> {
    try {
      const { Records, NextShardIterator } = await this.streams!.send(new GetRecordsCommand({ ShardIterator: shard.iterator!, Limit: limit }));
      shard.iterator = NextShardIterator ?? null;
      return (Records ?? []).map((record) => toLambdaRecord(record, this.streamArn!));
    } catch (error) {
      if (!(error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException)) throw error;
      // Reopened next round from the checkpoint (a trimmed one falls back to TRIM_HORIZON there).
      shard.iterator = undefined;
      return [];
    }
  }

  private async deliver(shard: ShardState): Promise<void> {
    const matching = this.matching(shard.buffer);
    if (matching.length === 0) {
      await this.commit(shard, shard.buffer.length);
      return;
    }
    const full = matching.slice(0, this.batchSize);
    const batch = shard.bisected ? full.slice(0, Math.ceil(full.length / 2)) : full;
    const outcome = await this.invoke(batch);

    if (outcome.failedAt === undefined) {
      // A whole delivery also consumes the filtered-out records after its last one.
      const through = batch.length === matching.length ? shard.buffer.length : shard.buffer.indexOf(batch.at(-1)!) + 1;
      shard.failedHead = undefined;
      shard.failures = 0;
      shard.bisected = false;
      await this.commit(shard, through);
      return;
    }

    const failed = batch[outcome.failedAt];
    const failedIndex = shard.buffer.indexOf(failed);
    await this.commit(shard, failedIndex);
    const sequenceNumber = failed.dynamodb!.SequenceNumber!;
    if (shard.failedHead === sequenceNumber) {
      shard.failures += 1;
    } else {
      shard.failedHead = sequenceNumber;
      shard.failures = 1;
      shard.bisected = false;
    }
    const nextBatchSize = matching.length - matching.indexOf(failed);

    if (shard.failures >= this.maxAttempts && !shard.bisected && nextBatchSize > 1) {
      shard.bisected = true;
      log('WARN', 'stream batch keeps failing; bisecting it', { function: this.functionName, shardId: shard.id, sequenceNumber, attempts: shard.failures, reason: outcome.reason });
      return;
    }
    if (shard.failures >= this.maxAttempts) {
      log('ERROR', 'stream record failed every try; skipped', {
        function: this.functionName,
        shardId: shard.id,
        sequenceNumber,
        eventID: failed.eventID,
        eventName: failed.eventName,
        keys: failed.dynamodb?.Keys,
        attempts: shard.failures,
        reason: outcome.reason,
      });
      shard.failedHead = undefined;
      shard.failures = 0;
      shard.bisected = false;
      await this.commit(shard, 1);
      return;
    }
    shard.retryAt = Date.now() + Math.min(this.retryDelayMs * 2 ** (shard.failures - 1), MAX_RETRY_DELAY_MS);
  }

  private async invoke(batch: DynamoDBRecord[]): Promise<Outcome> {
    const event: DynamoDBStreamEvent = { Records: batch };
    let response: DynamoDBBatchResponse | undefined;
    try {
      const handler = await loadHandler(this.options.handler);
      response = (await handler(event, lambdaContext(this.functionName, this.timeoutSeconds))) as DynamoDBBatchResponse | undefined;
    } catch (error) {
      log('ERROR', 'stream handler failed; batch will be retried', { function: this.functionName, records: batch.length, error: String(error) });
      return { failedAt: 0, reason: String(error) };
    }
    const failures = Array.isArray(response?.batchItemFailures) ? response.batchItemFailures : [];
    if (failures.length === 0) return {};
    const positions = failures.map((failure) => batch.findIndex((record) => record.dynamodb?.SequenceNumber === failure?.itemIdentifier));
    if (positions.some((position) => position < 0)) {
      log('WARN', 'batchItemFailures names a record not in the batch; the whole batch will be retried', { function: this.functionName, failures });
      return { failedAt: 0, reason: 'unknown itemIdentifier in batchItemFailures' };
    }
    return { failedAt: Math.min(...positions), reason: 'reported in batchItemFailures' };
  }

  /** Marks the first `count` buffered records done and persists the checkpoint. */
  private async commit(shard: ShardState, count: number): Promise<void> {
    if (count <= 0) return;
    const last = shard.buffer[count - 1];
    shard.buffer = shard.buffer.slice(count);
    this.checkpoint[shard.id] = last.dynamodb!.SequenceNumber!;
    await writeCheckpoint(this.options.checkpointFile, this.checkpoint);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

async function readCheckpoint(file: string | undefined): Promise<Record<string, string>> {
  if (!file) return {};
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((value) => typeof value === 'string')) {
    throw new Error(`Stream checkpoint ${file} is not a { shardId: sequenceNumber } object.`);
  }
  return { ...(parsed as Record<string, string>) };
}

/** Writes a temporary file and renames it over the checkpoint, so a crash never leaves half a file. */
async function writeCheckpoint(file: string | undefined, checkpoint: Record<string, string>): Promise<void> {
  if (!file) return;
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(checkpoint, null, 2));
  await rename(temporary, file);
}

/** The record as Lambda delivers it: region of the mapping, epoch seconds, binary as base64. */
function toLambdaRecord(record: _Record, eventSourceARN: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: REGION,
    dynamodb: {
      ...(stream.ApproximateCreationDateTime ? { ApproximateCreationDateTime: Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000) } : {}),
      ...(stream.Keys ? { Keys: toWireMap(stream.Keys) } : {}),
      ...(stream.NewImage ? { NewImage: toWireMap(stream.NewImage) } : {}),
      ...(stream.OldImage ? { OldImage: toWireMap(stream.OldImage) } : {}),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
    eventSourceARN,
    // TTL deletions carry the service identity, which consumers use to tell expiry from deletes.
    ...(record.userIdentity ? { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } } : {}),
  };
}

function toWireMap(map: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, toWire(value)]));
}

/** The SDK decodes binary into bytes; Lambda's JSON event carries it as base64. */
function toWire(value: SdkAttributeValue): AttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toWire) };
  if (value.M !== undefined) return { M: toWireMap(value.M) };
  return value as AttributeValue;
}

function log(level: 'WARN' | 'ERROR', message: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, message, ...fields });
  if (level === 'ERROR') console.error(line);
  else console.warn(line);
}
