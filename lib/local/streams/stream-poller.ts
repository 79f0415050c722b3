import { basename, extname } from 'node:path';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { CheckpointFile } from '#lib/local/streams/checkpoint-file';
import { batchToDeliver, endRun, recordFailure, reportedOutcome, retrying, UNKNOWN_IDENTIFIER, type Outcome, type RetrySettings } from '#lib/local/streams/retry-policy';
import { StreamShards, type ShardState, type StartingPosition } from '#lib/local/streams/shard-iteration';
import { streamLog } from '#lib/local/streams/stream-log';

export type { StartingPosition } from '#lib/local/streams/shard-iteration';

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

const ERROR_DELAY_MS = 1_000;
/**
 * Records read per GetRecords (DynamoDB's maximum). The batch size counts only records the filter
 * lets through, as on AWS, where FilterCriteria apply before batching; reading just `batchSize`
 * records of a table whose stream is mostly other writes made batches a fraction of that size,
 * and the consumer fell behind the table.
 */
const READ_LIMIT = 1_000;

/**
 * Plays Lambda's DynamoDB Streams event-source mapping for one handler against DynamoDB Local.
 *
 * - Reads every shard of the table's latest stream (shard-iteration.ts) and invokes the handler
 *   with a real `DynamoDBStreamEvent` (record-conversion.ts: images stay AttributeValue maps,
 *   binary as base64, as Lambda sends them).
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
 *   record is ever skipped per exhausted run — though after a thrown error that record is a guess
 *   (retry-policy.ts).
 * - Checkpoints `{ [shardId]: lastSequenceNumber }` to `checkpointFile` whenever records are done
 *   (checkpoint-file.ts), and resumes AFTER_SEQUENCE_NUMBER of it: at-least-once, a record may be
 *   delivered again after a crash but is never lost while the stream retains it. Failure counts
 *   live in memory only.
 */
export class StreamPoller {
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly retry: RetrySettings;
  private readonly timeoutSeconds: number;
  private readonly functionName: string;
  private readonly checkpoint: CheckpointFile;
  private readonly shards: StreamShards;

  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private wake?: () => void;

  constructor(private readonly options: StreamPollerOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.pollMs = options.pollMs ?? 200;
    this.retry = { maxAttempts: options.maxAttempts ?? 5, retryDelayMs: options.retryDelayMs ?? 200 };
    this.timeoutSeconds = options.timeoutSeconds ?? 30;
    this.functionName = basename(options.handler, extname(options.handler));
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > 10_000) throw new RangeError(`batchSize must be an integer from 1 to 10000, got ${this.batchSize}.`);
    if (!Number.isInteger(this.retry.maxAttempts) || this.retry.maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${this.retry.maxAttempts}.`);
    this.checkpoint = new CheckpointFile(options.checkpointFile);
    this.shards = new StreamShards(options.endpoint, options.tableName, options.startingPosition ?? 'TRIM_HORIZON', this.checkpoint);
  }

  /** Starts polling in the background; errors are logged and retried, never thrown. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.shards.connect();
    this.loopDone = this.loop();
  }

  /** Stops polling and waits for the batch in flight to finish and be checkpointed. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loopDone;
    this.shards.close();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let worked = false;
      let failed = false;
      try {
        await this.checkpoint.load();
        await this.shards.refresh();
        for (const shard of this.shards.readable()) {
          if (!this.running) break;
          if (shard.retryAt > Date.now()) continue;
          if (await this.step(shard)) worked = true;
        }
      } catch (error) {
        failed = true;
        if (this.running) streamLog('ERROR', 'stream poll failed', { table: this.options.tableName, error: String(error) });
      }
      if (!worked && this.running) await this.sleep(failed ? Math.max(this.pollMs, ERROR_DELAY_MS) : this.pollMs);
    }
  }

  /** One round for a shard: read a batch if none is pending, then deliver. True if records moved. */
  private async step(shard: ShardState): Promise<boolean> {
    if (shard.buffer.length === 0) {
      if (!(await this.shards.ensureOpen(shard))) return false;
      shard.buffer = await this.shards.read(shard, READ_LIMIT);
      if (shard.buffer.length === 0) return false;
      shard.bufferedAt = Date.now();
    }
    if (this.gathering(shard)) {
      // Inside the batching window: add what arrived since, and invoke once it is full or the window closes.
      shard.buffer.push(...(await this.shards.read(shard, READ_LIMIT)));
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
      !retrying(shard) &&
      this.matching(shard.buffer).length < this.batchSize &&
      shard.buffer.length < READ_LIMIT &&
      Date.now() - shard.bufferedAt < windowMs
    );
  }

  private matching(records: DynamoDBRecord[]): DynamoDBRecord[] {
    const filter = this.options.filter;
    return filter ? records.filter((record) => filter(record)) : records;
  }

  private async deliver(shard: ShardState): Promise<void> {
    const matching = this.matching(shard.buffer);
    if (matching.length === 0) {
      await this.commit(shard, shard.buffer.length);
      return;
    }
    const batch = batchToDeliver(matching, this.batchSize, shard);
    const outcome = await this.invoke(batch);

    if (outcome.failedAt === undefined) {
      // A whole delivery also consumes the filtered-out records after its last one.
      const through = batch.length === matching.length ? shard.buffer.length : shard.buffer.indexOf(batch.at(-1)!) + 1;
      endRun(shard);
      await this.commit(shard, through);
      return;
    }

    const failed = batch[outcome.failedAt];
    await this.commit(shard, shard.buffer.indexOf(failed));
    const sequenceNumber = failed.dynamodb!.SequenceNumber!;
    const decision = recordFailure(shard, sequenceNumber, matching.length - matching.indexOf(failed), this.retry);
    if (decision === 'bisect') {
      streamLog('WARN', 'stream batch keeps failing; bisecting it', { function: this.functionName, shardId: shard.id, sequenceNumber, attempts: shard.failures, reason: outcome.reason });
    } else if (decision === 'skip') {
      streamLog('ERROR', 'stream record failed every try; skipped', {
        function: this.functionName,
        shardId: shard.id,
        sequenceNumber,
        eventID: failed.eventID,
        eventName: failed.eventName,
        keys: failed.dynamodb?.Keys,
        attempts: shard.failures,
        reason: outcome.reason,
      });
      endRun(shard);
      await this.commit(shard, 1);
    }
  }

  private async invoke(batch: DynamoDBRecord[]): Promise<Outcome> {
    const event: DynamoDBStreamEvent = { Records: batch };
    let response: DynamoDBBatchResponse | undefined;
    try {
      const handler = await loadHandler(this.options.handler);
      response = (await handler(event, lambdaContext(this.functionName, this.timeoutSeconds))) as DynamoDBBatchResponse | undefined;
    } catch (error) {
      streamLog('ERROR', 'stream handler failed; batch will be retried', { function: this.functionName, records: batch.length, error: String(error) });
      return { failedAt: 0, reason: String(error) };
    }
    const outcome = reportedOutcome(batch, response);
    if (outcome.reason === UNKNOWN_IDENTIFIER) {
      streamLog('WARN', 'batchItemFailures names a record not in the batch; the whole batch will be retried', { function: this.functionName, failures: response?.batchItemFailures });
    }
    return outcome;
  }

  /** Marks the first `count` buffered records done and persists the checkpoint. */
  private async commit(shard: ShardState, count: number): Promise<void> {
    if (count <= 0) return;
    const last = shard.buffer[count - 1];
    shard.buffer = shard.buffer.slice(count);
    await this.checkpoint.advance(shard.id, last.dynamodb!.SequenceNumber!);
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
