import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';

/** A shard's run of failures: where it starts, how many tries failed, and what the next try delivers. */
export interface RetryState {
  /** Sequence number of the record the current run of failures starts at. */
  failedHead?: string;
  failures: number;
  /** The next try delivers only the first half of the batch. */
  bisected: boolean;
  /** No try before this time (epoch ms). */
  retryAt: number;
}

export interface RetrySettings {
  /** Failed tries of one batch before it is bisected, and then its poison record skipped. */
  maxAttempts: number;
  /** Delay before the first retry, doubled per further failure up to MAX_RETRY_DELAY_MS. */
  retryDelayMs: number;
}

export interface Outcome {
  /** Index in the delivered batch of the first record that failed; absent when the batch succeeded. */
  failedAt?: number;
  reason?: string;
}

export const UNKNOWN_IDENTIFIER = 'unknown itemIdentifier in batchItemFailures';
const MAX_RETRY_DELAY_MS = 5_000;

export function freshRetryState(): RetryState {
  return { failures: 0, bisected: false, retryAt: 0 };
}

/** True while a batch is being retried or bisected: such a batch is not gathered further. */
export function retrying(state: RetryState): boolean {
  return state.failures > 0 || state.failedHead !== undefined || state.bisected;
}

/** What to deliver of the records waiting (filtered ones): a full batch, or its first half when bisected. */
export function batchToDeliver(matching: DynamoDBRecord[], batchSize: number, state: RetryState): DynamoDBRecord[] {
  const full = matching.slice(0, batchSize);
  return state.bisected ? full.slice(0, Math.ceil(full.length / 2)) : full;
}

/**
 * ReportBatchItemFailures: the lowest reported failure is where the retry starts. An identifier
 * that is not a sequence number of the batch retries the whole batch, as a thrown error does.
 */
export function reportedOutcome(batch: DynamoDBRecord[], response: DynamoDBBatchResponse | undefined): Outcome {
  const failures = Array.isArray(response?.batchItemFailures) ? response.batchItemFailures : [];
  if (failures.length === 0) return {};
  const positions = failures.map((failure) => batch.findIndex((record) => record.dynamodb?.SequenceNumber === failure?.itemIdentifier));
  if (positions.some((position) => position < 0)) return { failedAt: 0, reason: UNKNOWN_IDENTIFIER };
  return { failedAt: Math.min(...positions), reason: 'reported in batchItemFailures' };
}

/** The run of failures, if any, is over: the batch succeeded or its poison record was skipped. */
export function endRun(state: RetryState): void {
  state.failedHead = undefined;
  state.failures = 0;
  state.bisected = false;
}

/**
 * A try failed at `sequenceNumber`, with `remaining` filtered records from it on. Counts the try
 * (a new run when it failed at another record) and decides: retry after a backoff, bisect once
 * the run reaches `maxAttempts` (unless one record remains), or skip the record after
 * `maxAttempts` tries of a bisected or single-record batch: it is the poison record (the caller
 * ends the run once it has logged it).
 */
export function recordFailure(state: RetryState, sequenceNumber: string, remaining: number, settings: RetrySettings, now = Date.now()): 'retry' | 'bisect' | 'skip' {
  if (state.failedHead === sequenceNumber) {
    state.failures += 1;
  } else {
    state.failedHead = sequenceNumber;
    state.failures = 1;
    state.bisected = false;
  }
  if (state.failures >= settings.maxAttempts && !state.bisected && remaining > 1) {
    state.bisected = true;
    return 'bisect';
  }
  if (state.failures >= settings.maxAttempts) return 'skip';
  state.retryAt = now + Math.min(settings.retryDelayMs * 2 ** (state.failures - 1), MAX_RETRY_DELAY_MS);
  return 'retry';
}
