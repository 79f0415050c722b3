import { callKeys } from './call-keys.ts';
import type { GatehouseClient } from './client.ts';
import { createTaskContext, type TaskContext } from './context.ts';
import { isLeaseLost, TaskFailure, type AbortReason } from './errors.ts';
import { holdLease } from './lease.ts';
import type { Logger } from './logger.ts';
import { truncate } from './truncate.ts';
import type { Claim, ErrorBody } from './types.ts';

/**
 * Handles one task type. Resolving completes the task, throwing TaskFailure fails it with its
 * code, throwing anything else fails it with `agent_error`. The return value is not used.
 */
// A method signature makes `input` bivariant: a handler may annotate its input's type.
export type TaskHandler<Input = unknown> = { handle(input: Input, ctx: TaskContext): unknown }['handle'];

export type TaskHandlers = Record<string, TaskHandler>;

export interface RunSettings {
  client: GatehouseClient;
  handlers: TaskHandlers;
  logger: Logger;
  leaseSeconds: number;
  heartbeatEveryMs: number;
}

export interface RunningTask {
  /** Settles once nothing more will be sent for the task. */
  readonly finished: Promise<void>;
  /** For shutdown: if the handler still runs, aborts it with `'shutdown'` and gives the task back. */
  release(): Promise<void>;
}

const FAILURE_MESSAGE_MAX = 1000;

/** Runs a claimed task's handler under a held lease, and reports how it ended. */
export function startTask(claim: Claim, settings: RunSettings): RunningTask {
  const { client, logger } = settings;
  const { task } = claim;
  const fields = { task_id: task.task_id, task_type: task.task_type, attempt: claim.attempt };
  const nextKey = callKeys(claim.lease_id);
  logger.info('task claimed', { ...fields, decisions: claim.decisions.length, artifacts: task.artifacts.length });

  const handler = Object.hasOwn(settings.handlers, task.task_type) ? settings.handlers[task.task_type] : undefined;
  if (!handler) {
    const finished = report(claim, { code: 'no_handler', message: `This worker has no handler for task type '${task.task_type}'.` }, settings, nextKey);
    return { finished, release: () => finished };
  }

  const controller = new AbortController();
  let suspendedOn: string | undefined;
  let handlerRunning = true;
  let markReleased = () => {};
  const released = new Promise<void>((resolve) => (markReleased = resolve));

  // A shutdown logs the release that follows instead.
  const abort = (reason: AbortReason, detail?: string) => {
    if (controller.signal.aborted || suspendedOn) return;
    controller.abort(reason);
    lease.stop();
    if (reason === 'lease_lost') logger.warn('lease lost; the task is dropped', { ...fields, detail });
    if (reason === 'cancelled') logger.info('task cancelled', fields);
  };
  const lease = holdLease({
    client,
    taskId: task.task_id,
    leaseId: claim.lease_id,
    leaseSeconds: settings.leaseSeconds,
    heartbeatEveryMs: settings.heartbeatEveryMs,
    nextKey,
    logger,
    onCancelled: () => abort('cancelled'),
    onLost: (why) => abort('lease_lost', why),
  });
  const ctx = createTaskContext({
    claim,
    client,
    lease,
    signal: controller.signal,
    nextKey,
    leaseLost: () => abort('lease_lost', 'a call was refused: lease_lost'),
    suspend: (approvalId) => {
      suspendedOn = approvalId;
      logger.info('task waits for an approval', { ...fields, approval_id: approvalId });
    },
    get suspendedOn() {
      return suspendedOn;
    },
  });

  const ran = (async () => {
    let failure: ErrorBody | undefined;
    let stack: string | undefined;
    try {
      await handler(task.input, ctx);
    } catch (error) {
      failure = failureOf(error);
      // An unexpected error's stack is what its author needs; a TaskFailure is an outcome, not a bug.
      if (failure.code === 'agent_error' && error instanceof Error) stack = error.stack;
    }
    handlerRunning = false;
    // Cancelled, lost, released or waiting for a person: the server owns the task's state now.
    if (controller.signal.aborted || suspendedOn) return;
    lease.stop();
    await report(claim, failure, settings, nextKey, { stack });
  })();

  return {
    finished: Promise.race([ran, released]),
    async release() {
      if (!handlerRunning) return;
      if (!controller.signal.aborted && !suspendedOn) {
        abort('shutdown');
        await releaseClaim(claim, settings, nextKey);
      }
      markReleased();
    },
  };
}

/** Gives a claimed task back to the queue (`POST /release`); a failure only costs the wait for the lease to run out. */
export async function releaseClaim(claim: Claim, { client, logger }: Pick<RunSettings, 'client' | 'logger'>, nextKey = callKeys(claim.lease_id)): Promise<void> {
  const fields = { task_id: claim.task.task_id, task_type: claim.task.task_type };
  try {
    await client.release(claim.task.task_id, { lease_id: claim.lease_id }, { idempotencyKey: nextKey() });
    logger.info('task released', fields);
  } catch (error) {
    if (isLeaseLost(error)) logger.warn('lease lost; the task is dropped', { ...fields, detail: 'the release was refused: lease_lost' });
    else logger.error('release failed; the task goes back to the queue when its lease runs out', { ...fields, error: messageOf(error) });
  }
}

/** Completes the task (no failure) or fails it; never throws, since the lease running out is the fallback. */
async function report(claim: Claim, failure: ErrorBody | undefined, { client, logger }: RunSettings, nextKey: () => string, extra: { stack?: string } = {}): Promise<void> {
  const taskId = claim.task.task_id;
  const fields = { task_id: taskId, task_type: claim.task.task_type, attempt: claim.attempt };
  try {
    if (failure) {
      await client.fail(taskId, { lease_id: claim.lease_id, error: failure }, { idempotencyKey: nextKey() });
      logger.info('task failed', { ...fields, error: failure, ...extra });
    } else {
      await client.complete(taskId, { lease_id: claim.lease_id }, { idempotencyKey: nextKey() });
      logger.info('task completed', fields);
    }
  } catch (error) {
    if (isLeaseLost(error)) logger.warn('lease lost; the task is dropped', { ...fields, detail: 'the report was refused: lease_lost' });
    else logger.error('could not report how the task ended; it runs again when its lease runs out', { ...fields, error: messageOf(error) });
  }
}

/** The `error` of `POST /fail` for what a handler threw. */
function failureOf(error: unknown): ErrorBody {
  if (error instanceof TaskFailure) return { code: error.code, message: truncate(error.message || error.code, FAILURE_MESSAGE_MAX) };
  return { code: 'agent_error', message: truncate(messageOf(error) || 'The handler threw without a message.', FAILURE_MESSAGE_MAX) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
