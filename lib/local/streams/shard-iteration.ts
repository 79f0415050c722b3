import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import type { CheckpointFile } from '#lib/local/streams/checkpoint-file';
import { toLambdaRecord } from '#lib/local/streams/record-conversion';
import { freshRetryState, type RetryState } from '#lib/local/streams/retry-policy';
import { streamLog } from '#lib/local/streams/stream-log';

export type StartingPosition = 'TRIM_HORIZON' | 'LATEST';

export interface ShardState extends RetryState {
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
}

const REGION = 'us-east-1';
/** Shards split every few hours on AWS; looking for new ones every few seconds is plenty locally. */
const DISCOVERY_INTERVAL_MS = 5_000;

/**
 * The shards of a table's latest stream on DynamoDB Local, and reading them: a child shard becomes
 * readable only once its parent is read to its end (so order per item holds across shard splits).
 * Shards without a checkpoint start at `startingPosition` if listed at the first discovery (with
 * LATEST, at TRIM_HORIZON when an ancestor has a checkpoint: that lineage was being read), and at
 * TRIM_HORIZON when they appeared later, since everything in them is new.
 */
export class StreamShards {
  private dynamodb?: DynamoDBClient;
  private streams?: DynamoDBStreamsClient;
  private streamArn?: string;
  private readonly shards = new Map<string, ShardState>();
  private discoveredAt = 0;

  constructor(
    private readonly endpoint: string,
    private readonly tableName: string,
    private readonly startingPosition: StartingPosition,
    private readonly checkpoint: CheckpointFile,
  ) {}

  connect(): void {
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    this.dynamodb = withoutSdkLogger(new DynamoDBClient({ endpoint: this.endpoint, region: REGION, credentials }));
    this.streams = withoutSdkLogger(new DynamoDBStreamsClient({ endpoint: this.endpoint, region: REGION, credentials }));
  }

  close(): void {
    this.dynamodb?.destroy();
    this.streams?.destroy();
    this.dynamodb = undefined;
    this.streams = undefined;
  }

  /** Finds the stream once, and looks for new shards every DISCOVERY_INTERVAL_MS (or soon after one ended). */
  async refresh(): Promise<void> {
    if (!this.streamArn) {
      const { Table } = await this.dynamodb!.send(new DescribeTableCommand({ TableName: this.tableName }));
      if (!Table?.LatestStreamArn) throw new Error(`Table ${this.tableName} has no stream.`);
      this.streamArn = Table.LatestStreamArn;
    }
    if (Date.now() - this.discoveredAt >= DISCOVERY_INTERVAL_MS) await this.discover();
  }

  /** Shards being read, and waiting shards whose parent is read to its end (or trimmed away). */
  readable(): ShardState[] {
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

  /** Opens the shard's iterator if it has none; false once the shard is closed and read to its end. */
  async ensureOpen(shard: ShardState): Promise<boolean> {
    if (shard.iterator === undefined) shard.iterator = await this.openIterator(shard);
    if (shard.iterator !== null) return true;
    shard.status = 'done';
    // Its children may be listed already; look again soon in case they are not.
    this.discoveredAt = 0;
    return false;
  }

  /** Up to `limit` records after the shard's iterator, as Lambda delivers them. */
  async read(shard: ShardState, limit: number): Promise<DynamoDBRecord[]> {
    try {
      const { Records, NextShardIterator } = await this.streams!.send(new GetRecordsCommand({ ShardIterator: shard.iterator!, Limit: limit }));
      shard.iterator = NextShardIterator ?? null;
      return (Records ?? []).map((record) => toLambdaRecord(record, this.streamArn!, REGION));
    } catch (error) {
      if (!(error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException)) throw error;
      // Reopened next round from the checkpoint (a trimmed one falls back to TRIM_HORIZON there).
      shard.iterator = undefined;
      return [];
    }
  }

  private async discover(): Promise<void> {
    const initial = this.discoveredAt === 0;
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await this.streams!.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: exclusiveStartShardId }));
      for (const shard of StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || this.shards.has(shard.ShardId)) continue;
        this.shards.set(shard.ShardId, { id: shard.ShardId, parentId: shard.ParentShardId, initial, status: 'waiting', iterator: undefined, buffer: [], bufferedAt: 0, ...freshRetryState() });
      }
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    this.discoveredAt = Date.now();
  }

  private async openIterator(shard: ShardState): Promise<string | null> {
    // Resume after what is buffered (an iterator can expire while a batch is retried) or checkpointed.
    const after = shard.buffer.at(-1)?.dynamodb?.SequenceNumber ?? this.checkpoint.get(shard.id);
    if (after) {
      try {
        return await this.getIterator(shard.id, 'AFTER_SEQUENCE_NUMBER', after);
      } catch (error) {
        if (!(error instanceof TrimmedDataAccessException)) throw error;
        streamLog('ERROR', 'stream checkpoint is older than the stream retains; records after it were lost, resuming at TRIM_HORIZON', { shardId: shard.id, sequenceNumber: after });
        return this.getIterator(shard.id, 'TRIM_HORIZON');
      }
    }
    const position = !shard.initial || this.ancestorCheckpointed(shard) ? 'TRIM_HORIZON' : this.startingPosition;
    return this.getIterator(shard.id, position);
  }

  private ancestorCheckpointed(shard: ShardState): boolean {
    for (let id = shard.parentId; id !== undefined; id = this.shards.get(id)?.parentId) {
      if (this.checkpoint.get(id) !== undefined) return true;
    }
    return false;
  }

  private async getIterator(shardId: string, type: ShardIteratorType, sequenceNumber?: string): Promise<string | null> {
    const { ShardIterator } = await this.streams!.send(
      new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequenceNumber }),
    );
    return ShardIterator ?? null;
  }
}
