import type { Problem } from './types.ts';

/** Why `ctx.signal` aborted: a person cancelled the task, its lease is gone, or the worker is stopping. */
export type AbortReason = 'cancelled' | 'lease_lost' | 'shutdown';

const FAILURE_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * 409s that say "retry": the first request with this Idempotency-Key is still running (its answer
 * was lost to a timeout), or another call of the same lease moved the task meanwhile.
 */
const RETRYABLE_CONFLICTS = new Set(['idempotency_request_in_progress', 'task_busy']);

/**
 * A call to Gatehouse that failed for good: a 4xx other than 408 and 429, or an error that was
 * still there when the retries ran out. `status` is 0 when no HTTP answer came at all.
 */
export class GatehouseError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly errors: { path: string; message: string }[];

  constructor(problem: Pick<Problem, 'status' | 'code' | 'detail' | 'errors'>, options?: ErrorOptions) {
    super(`${problem.code} (${problem.status || 'no answer'}): ${problem.detail}`, options);
    this.name = 'GatehouseError';
    this.status = problem.status;
    this.code = problem.code;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
  }

  /** Whether trying the same call again may succeed: no answer, 408, 429, 5xx, or a 409 that asks for a retry. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500 || RETRYABLE_CONFLICTS.has(this.code);
  }
}

/** True for the 409 that says the lease is no longer this worker's: stop, and report nothing. */
export function isLeaseLost(error: unknown): boolean {
  return error instanceof GatehouseError && error.code === 'lease_lost';
}

/** Thrown by a handler to fail its task with a machine-readable code (`/^[a-z][a-z0-9_]{0,63}$/`). */
export class TaskFailure extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    // Checked here, where the mistake is made, rather than as a 400 on the fail call that would leave the task hanging.
    if (!FAILURE_CODE.test(code)) throw new TypeError(`TaskFailure code '${code}' must match ${FAILURE_CODE}`);
    super(message);
    this.name = 'TaskFailure';
    this.code = code;
  }
}

/**
 * Rejects `ctx.requestApproval` once the approval is posted: the lease has ended and the task
 * waits for a person. Let it propagate; the SDK swallows it, and the run starts again (replaying)
 * when a worker claims the task after the decision.
 */
export class TaskSuspended extends Error {
  readonly approvalId: string;

  constructor(approvalId: string) {
    super(`The task waits for a decision on approval ${approvalId}; it runs again once a person decides.`);
    this.name = 'TaskSuspended';
    this.approvalId = approvalId;
  }
}

/** Rejects every `ctx` call made after `ctx.signal` aborted; the SDK reports nothing for the task. */
export class TaskAborted extends Error {
  readonly reason: AbortReason;

  constructor(reason: AbortReason) {
    super(`The task's run was stopped: ${reason}.`);
    this.name = 'TaskAborted';
    this.reason = reason;
  }
}

/** A tool call that Gatehouse ran and the provider refused (`integration_revoked`, `provider_unavailable`, ...). */
export class ToolCallError extends Error {
  readonly tool: string;
  readonly code: string;
  readonly toolCallId: string;

  constructor(tool: string, toolCallId: string, error: { code: string; message: string }) {
    super(`${tool} failed: ${error.code}: ${error.message}`);
    this.name = 'ToolCallError';
    this.tool = tool;
    this.code = error.code;
    this.toolCallId = toolCallId;
  }
}
