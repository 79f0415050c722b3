import { documentClient } from '#shared/adapters/dynamodb/client';

/** The DynamoDB calls of one scope (a handler file, or the in-process floor) that tell how claims went. */
export interface ClaimCalls {
  /** Queries of a claim queue: one per look; and the read units they reported (when asked to). */
  looks: number;
  lookReadUnitsReported: number;
  /** Reads of a task item, and those that found it no longer waiting (another worker won it since the look). */
  taskReads: number;
  takenBeforeWrite: number;
  /** TransactWriteItems, and those cancelled by a condition (another claim, or a cancel, came first). */
  transactions: number;
  transactionsCancelled: number;
  /**
   * Conditional writes that failed, by command. DynamoDB bills a failed condition as the write
   * it would have been, but the failure carries no consumed capacity, so bench/metering.ts
   * cannot count its units: this does, for the notes.
   */
  failedConditionalWrites: Record<string, number>;
}

const WAITING_STATUSES = new Set(['queued', 'pending']);
const CONDITION_FAILURES = new Set(['ConditionalCheckFailedException', 'TransactionCanceledException']);
const NAME = 'benchClaimCalls';

/** The serialized request: a string, or bytes (as in bench/metering.ts). */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  return body instanceof Uint8Array ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') : '';
}

function emptyCalls(): ClaimCalls {
  return { looks: 0, lookReadUnitsReported: 0, taskReads: 0, takenBeforeWrite: 0, transactions: 0, transactionsCancelled: 0, failedConditionalWrites: {} };
}

// The few fields of the SDK's middleware types (in @smithy/types) this reads.
type Args = { request?: { body?: unknown } };
// The document client has unmarshalled the item by this step (its DocumentUnmarshall sits at the deserializer).
type Output = { output: { Item?: { entity?: unknown; status?: unknown }; ConsumedCapacity?: { CapacityUnits?: number } } };
type Middleware = (next: (args: Args) => Promise<Output>, context: { commandName?: string }) => (args: Args) => Promise<Output>;
type Stack = { add(middleware: Middleware, options: { step: 'build'; name: string }): void; remove(name: string): boolean };

/**
 * Counts, on the one document client the handlers share, the calls of claims by scope:
 * `scopeOf` names the scope of the call being made (undefined: not counted). At the build step,
 * so a call is counted once whatever the SDK's retries, with its serialized body to tell a
 * claim queue's Query (its partition key ends in `#QUEUE`) from any other.
 */
export function countClaimCalls(scopeOf: () => string | undefined): { take(scope: string): ClaimCalls; takeAll(): ClaimCalls[]; uninstall(): void } {
  const byScope = new Map<string, ClaimCalls>();
  const stack = documentClient().middlewareStack as unknown as Stack;
  stack.add(
    (next, context) => async (args) => {
      const scope = scopeOf();
      if (scope === undefined) return next(args);
      const calls = byScope.get(scope) ?? emptyCalls();
      byScope.set(scope, calls);
      const command = context.commandName ?? 'unknown';
      const body = bodyText(args.request?.body);
      const look = command === 'QueryCommand' && body.includes('#QUEUE"');
      if (look) calls.looks += 1;
      if (command === 'TransactWriteItemsCommand') calls.transactions += 1;
      try {
        const result = await next(args);
        if (look) calls.lookReadUnitsReported += result.output.ConsumedCapacity?.CapacityUnits ?? 0;
        const item = result.output.Item;
        if (command === 'GetItemCommand' && item?.entity === 'task') {
          calls.taskReads += 1;
          if (!WAITING_STATUSES.has(String(item.status))) calls.takenBeforeWrite += 1;
        }
        return result;
      } catch (error) {
        const name = (error as { name?: string }).name ?? '';
        if (CONDITION_FAILURES.has(name)) {
          calls.failedConditionalWrites[command] = (calls.failedConditionalWrites[command] ?? 0) + 1;
          if (command === 'TransactWriteItemsCommand') calls.transactionsCancelled += 1;
        }
        throw error;
      }
    },
    { step: 'build', name: NAME },
  );
  return {
    take(scope) {
      const calls = byScope.get(scope) ?? emptyCalls();
      byScope.delete(scope);
      return calls;
    },
    takeAll() {
      const all = [...byScope.values()];
      byScope.clear();
      return all;
    },
    uninstall: () => void stack.remove(NAME),
  };
}
