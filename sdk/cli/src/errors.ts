import type { Problem } from './wire.ts';

/** A flag, an argument or the environment is wrong: nothing was started. */
export class UsageError extends Error {
  /** The help that shows what is right, if any does. */
  readonly help: string | null;

  constructor(message: string, help: string | null = 'gatehouse scan --help') {
    super(message);
    this.name = 'UsageError';
    this.help = help;
  }
}

/**
 * 409s that say "retry": the first request with this Idempotency-Key is still running, its
 * answer lost to a timeout.
 */
const RETRYABLE_CONFLICTS = new Set(['idempotency_request_in_progress']);

/**
 * A call to Gatehouse that failed for good: a 4xx at once (but 408, 429 and the conflicts above),
 * or the error that was still there when the retries ran out. `status` is 0 when no answer came.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: { path: string; message: string }[];

  constructor(problem: Required<Pick<Problem, 'status' | 'code' | 'title' | 'detail'>> & Pick<Problem, 'errors'>, options?: ErrorOptions) {
    super(`${problem.title}: ${problem.detail}`, options);
    this.name = 'ApiError';
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
  }

  /** Whether the same call may succeed later: no answer, 408, 429, 5xx, or a conflict that asks for a retry. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500 || RETRYABLE_CONFLICTS.has(this.code);
  }
}

export type Unfinished = 'failed' | 'cancelled' | 'timed_out';

/** The scan ended without a result the gate can judge, or did not end in time. */
export class ScanNotCompleted extends Error {
  readonly scanId: string;
  readonly outcome: Unfinished;

  constructor(scanId: string, outcome: Unfinished, message: string) {
    super(message);
    this.name = 'ScanNotCompleted';
    this.scanId = scanId;
    this.outcome = outcome;
  }
}

/** SIGINT or SIGTERM arrived; the scan this run started has been cancelled (best effort). */
export class Interrupted extends Error {
  readonly signal: 'SIGINT' | 'SIGTERM';

  constructor(signal: 'SIGINT' | 'SIGTERM') {
    super(`Stopped by ${signal}.`);
    this.name = 'Interrupted';
    this.signal = signal;
  }
}
