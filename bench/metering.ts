import { appendFileSync } from 'node:fs';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { sqsClient } from '#shared/adapters/sqs/client';
import { currentInvocation, observeInvocations } from '#lib/local/handler-loader';
import { eventSourceSqsClient } from '#lib/local/queue-poller';
import { transactionWriteUnits, updatedAttributesOf, type TransactionAction, type WireItem, type WireValue } from './capacity';
import { SQS_CHUNK_BYTES } from './prices';

/** What one function used while metered. */
export interface FunctionMeter {
  invocations: number;
  failed: number;
  /** Sum over invocations of the duration rounded up to 1 ms, as Lambda bills it. */
  billedMs: number;
  readUnits: number;
  writeUnits: number;
  sqsRequests: number;
  /** Bytes its invocations wrote to stdout and stderr: what CloudWatch Logs would ingest. */
  logBytes: number;
}

export interface MeterSnapshot {
  /** By handler file. */
  functions: Record<string, FunctionMeter>;
  /**
   * SQS requests of the event-source mappings (the local queue poller plays them): receives that
   * returned messages, and the deletes after a batch. Receives that came back empty are counted
   * apart: on AWS the mapping long-polls at a fixed rate whatever the load.
   */
  eventSourceSqsRequests: number;
  emptyReceives: number;
  /** One-time schedules created and deleted (local table items; EventBridge Scheduler on AWS). */
  schedulesCreated: number;
  schedulesDeleted: number;
  /** DynamoDB units of the local stand-ins (schedule items, the schedule runner's polls): not on AWS. */
  localOnlyReadUnits: number;
  localOnlyWriteUnits: number;
  /** Transactions, their units as priced (see capacity.ts) beside what DynamoDB Local reported. */
  transactions: number;
  transactionUnitsPriced: number;
  transactionUnitsReportedLocally: number;
}

const READ_OPERATIONS = new Set(['GetItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand']);

function emptyFunction(): FunctionMeter {
  return { invocations: 0, failed: 0, billedMs: 0, readUnits: 0, writeUnits: 0, sqsRequests: 0, logBytes: 0 };
}

function emptySnapshot(): MeterSnapshot {
  return {
    functions: {},
    eventSourceSqsRequests: 0,
    emptyReceives: 0,
    schedulesCreated: 0,
    schedulesDeleted: 0,
    localOnlyReadUnits: 0,
    localOnlyWriteUnits: 0,
    transactions: 0,
    transactionUnitsPriced: 0,
    transactionUnitsReportedLocally: 0,
  };
}

/** The serialized request body: a string, or bytes (the SDK's JSON protocols hand over a Uint8Array). */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return '';
}

type ConsumedCapacity = { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined;

function units(consumed: ConsumedCapacity): number {
  const list = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  return list.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
}

// The SDK's middleware types live in @smithy/types, a transitive dependency; these are the few
// fields the meter reads.
type Args = { input: Record<string, unknown>; request?: { body?: unknown } };
type Output = { output: Record<string, unknown> };
type Next = (args: Args) => Promise<Output>;
type Context = { commandName?: string };
type Middleware = (next: Next, context: Context) => (args: Args) => Promise<Output>;
type Stack = { add(middleware: Middleware, options: { step: 'initialize' | 'build'; name: string; priority?: 'high' | 'low' }): void; remove(name: string): boolean };

/**
 * Meters, in this process, everything the local runtime's handlers do that AWS bills: every
 * handler invocation and its duration (the runtime's invocation observer), DynamoDB capacity
 * units (ReturnConsumedCapacity on the one document client), SQS requests (the one SQS client)
 * and bytes logged. Calls are attributed to the function whose invocation made them, through the
 * observer's async context; what the runtime itself does (queue polling, the schedule runner) is
 * kept apart, because on AWS those are the event-source mappings and EventBridge Scheduler.
 */
export class Meter {
  private data = emptySnapshot();
  private lookups: DynamoDBClient | undefined;

  /** Starts metering; the returned function stops it and restores stdout and stderr. */
  install(): () => void {
    observeInvocations(({ file, durationMs, failed }) => {
      const meter = this.fn(file);
      meter.invocations += 1;
      meter.billedMs += Math.max(1, Math.ceil(durationMs));
      if (failed) meter.failed += 1;
    });
    const dynamo = documentClient().middlewareStack as unknown as Stack;
    // The handlers' client and the event-source mappings' (the local queue pollers) are apart.
    const sqsStacks = [sqsClient(), eventSourceSqsClient()].map((client) => client.middlewareStack as unknown as Stack);
    dynamo.add((next) => async (args) => next({ ...args, input: { ...args.input, ReturnConsumedCapacity: 'TOTAL' } }), { step: 'initialize', name: 'benchReturnConsumedCapacity', priority: 'high' });
    dynamo.add((next, context) => (args) => this.meterDynamo(next, context, args), { step: 'build', name: 'benchMeterDynamo' });
    for (const sqs of sqsStacks) sqs.add((next, context) => (args) => this.meterSqs(next, context, args), { step: 'build', name: 'benchMeterSqs' });
    const restoreOut = this.countBytes(process.stdout);
    const restoreErr = this.countBytes(process.stderr);
    return () => {
      observeInvocations(undefined);
      dynamo.remove('benchReturnConsumedCapacity');
      dynamo.remove('benchMeterDynamo');
      for (const sqs of sqsStacks) sqs.remove('benchMeterSqs');
      restoreOut();
      restoreErr();
      this.lookups?.destroy();
    };
  }

  reset(): void {
    this.data = emptySnapshot();
  }

  snapshot(): MeterSnapshot {
    return structuredClone(this.data);
  }

  /** Invocations so far, of every function: the bench waits until this stops moving. */
  invocations(): number {
    return Object.values(this.data.functions).reduce((sum, meter) => sum + meter.invocations, 0);
  }

  private fn(file: string): FunctionMeter {
    return (this.data.functions[file] ??= emptyFunction());
  }

  private async meterDynamo(next: Next, context: Context, args: Args): Promise<Output> {
    const operation = context.commandName ?? '';
    const body = bodyText(args.request?.body);
    // Schedule items and the due-time partition are the local stand-in for EventBridge Scheduler.
    const localScheduler = body.includes('"SCHEDULE#') || body.includes('"SCHEDULES_DUE"');
    const actions = operation === 'TransactWriteItemsCommand' ? await this.transactionActions(body) : undefined;
    const result = await next(args);
    const reported = units(result.output.ConsumedCapacity as ConsumedCapacity);
    const priced = actions ? transactionWriteUnits(actions) : reported;
    if (actions) {
      this.data.transactions += 1;
      this.data.transactionUnitsPriced += priced;
      this.data.transactionUnitsReportedLocally += reported;
    }
    const read = READ_OPERATIONS.has(operation);
    const file = currentInvocation();
    if (process.env.BENCH_TRACE_WRITES) {
      const keysOf = (text: string) => [...text.matchAll(/"pk":\{"S":"([^"]*)"\}/g)].map((match) => match[1].replace(/[0-9a-z]{26}/g, '…')).join(' ');
      appendFileSync(process.env.BENCH_TRACE_WRITES, `${file ?? '-'}\t${operation}\t${priced}\t${reported}\t${body.length}\t${keysOf(body)}\n`);
    }
    if (localScheduler || !file) {
      if (localScheduler && operation === 'PutItemCommand' && file) this.data.schedulesCreated += 1;
      if (localScheduler && operation === 'DeleteItemCommand' && file) this.data.schedulesDeleted += 1;
      if (read) this.data.localOnlyReadUnits += priced;
      else this.data.localOnlyWriteUnits += priced;
    } else if (read) {
      this.fn(file).readUnits += priced;
    } else {
      this.fn(file).writeUnits += priced;
    }
    return result;
  }

  /** The actions of a transaction with their items: Put carries its item, the others are read first. */
  private async transactionActions(body: string): Promise<TransactionAction[]> {
    const { TransactItems = [] } = JSON.parse(body) as { TransactItems?: Record<string, Record<string, unknown>>[] };
    this.lookups ??= new DynamoDBClient({});
    const lookups = this.lookups;
    return Promise.all(
      TransactItems.map(async (entry): Promise<TransactionAction> => {
        const [kind, action] = Object.entries(entry)[0] as [TransactionAction['kind'], Record<string, unknown>];
        if (kind === 'Put') return { kind, item: action.Item as WireItem };
        const { Item } = await lookups.send(new GetItemCommand({ TableName: action.TableName as string, Key: action.Key as never, ConsistentRead: true }));
        const names = (action.ExpressionAttributeNames ?? {}) as Record<string, string>;
        const values = Object.values((action.ExpressionAttributeValues ?? {}) as Record<string, WireValue>);
        const key = action.Key as WireItem;
        if (kind !== 'Update') return { kind, item: Item as WireItem | undefined };
        const expression = String(action.UpdateExpression ?? '');
        const removeClause = /\bREMOVE\b(.*?)(?=\b(?:SET|ADD|DELETE)\b|$)/i.exec(expression)?.[0] ?? '';
        return {
          kind,
          item: Item as WireItem | undefined,
          updatedAttributes: [...updatedAttributesOf(expression, names), ...(Item ? [] : Object.keys(key))],
          removedAttributes: updatedAttributesOf(removeClause, names),
          updateValueBytes: Buffer.byteLength(JSON.stringify({ ...key, ...values })),
        };
      }),
    );
  }

  private async meterSqs(next: Next, context: Context, args: Args): Promise<Output> {
    const operation = context.commandName ?? '';
    const bytes = Buffer.byteLength(bodyText(args.request?.body));
    const result = await next(args);
    const file = currentInvocation();
    if (operation === 'ReceiveMessageCommand') {
      const messages = (result.output.Messages ?? []) as { Body?: string }[];
      if (messages.length === 0) {
        this.data.emptyReceives += 1;
      } else {
        const payload = messages.reduce((sum, message) => sum + Buffer.byteLength(message.Body ?? ''), 0);
        this.data.eventSourceSqsRequests += Math.max(1, Math.ceil(payload / SQS_CHUNK_BYTES));
      }
      return result;
    }
    // A send is billed per 64 KB chunk of its payload; everything else is one request.
    const requests = operation.startsWith('SendMessage') ? Math.max(1, Math.ceil(bytes / SQS_CHUNK_BYTES)) : 1;
    if (file) this.fn(file).sqsRequests += requests;
    else this.data.eventSourceSqsRequests += requests;
    return result;
  }

  /** Counts bytes a handler invocation writes to the stream; the bytes still go out. */
  private countBytes(stream: NodeJS.WriteStream): () => void {
    const original = stream.write;
    const meter = this;
    stream.write = function write(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      const file = currentInvocation();
      if (file) meter.fn(file).logBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Uint8Array).byteLength;
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof stream.write;
    return () => {
      stream.write = original;
    };
  }
}

/** How long no function may be invoked before the metered work counts as done. */
const QUIET_MS = 1_500;

/** Waits until no function has been invoked for QUIET_MS: stream consumers and deliveries are done. */
export async function quiet(meter: Meter): Promise<void> {
  let last = -1;
  let stableSince = Date.now();
  for (;;) {
    const now = meter.invocations();
    if (now !== last) {
      last = now;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= QUIET_MS) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
