import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { taskSlotRepository } from '#shared/adapters/dynamodb/task-slot-repository';
import { ConflictError, ForbiddenError, NotFoundError } from '#shared/domain/errors';
import type { Caller } from '#shared/domain/roles';
import type { Task } from '#shared/domain/task';
import { logger } from '#shared/observability/logger';

/**
 * What every call of the worker protocol on one task checks first (docs/workers.md): the task is
 * a task of the caller's own agent (anything else is 404, as another tenant's would be), and it is
 * running under the caller's lease (409 `lease_lost` otherwise: the worker must stop).
 */

/** A slot lease outlives its task lease by this much, so a heartbeat a little late never loses the slot first. */
export const SLOT_GRACE_MS = 60_000;

/** The caller's agent: an `agent` key works for one custom agent, and only for it. */
export function workerAgentOf(caller: Caller): string {
  if (caller.role !== 'agent' || !caller.agent) throw new ForbiddenError('Only an API key of role agent, bound to its agent, can use the worker protocol.');
  return caller.agent;
}

/** The caller's agent's task, as stored now; 404 for any other. */
export async function workerTask(caller: Caller, taskId: string): Promise<Task> {
  const agent = workerAgentOf(caller);
  const task = await taskRepository.load(caller.tenantId, taskId);
  if (!task || task.runs_on !== 'worker' || task.agent !== agent) throw new NotFoundError('task', taskId);
  return task;
}

/** The task, if `leaseId` still holds it; 409 `lease_lost` saying why not. */
export async function leasedTask(caller: Caller, taskId: string, leaseId: string): Promise<Task> {
  const task = await workerTask(caller, taskId);
  if (task.status !== 'running' || task.lease_id !== leaseId) throw leaseLost(task, leaseId);
  return task;
}

export function leaseLost(task: Task, leaseId: string): ConflictError {
  const why =
    task.status === 'cancelled'
      ? 'the task was cancelled'
      : task.status === 'awaiting_approval'
        ? 'the task waits for an approval; the next claim carries the decision'
        : task.status === 'complete' || task.status === 'failed'
          ? `the task is ${task.status}`
          : task.lease_id === leaseId
            ? 'the task went back to the queue (the lease ran out, or it was released)'
            : 'another lease holds the task now';
  return new ConflictError('lease_lost', `Lease '${leaseId}' no longer holds task ${task.task_id}: ${why}. Stop working on it.`);
}

/** Attempts of a write that other writes of the same lease keep beating (a worker's calls at once). */
const WRITE_ATTEMPTS = 8;

/**
 * Runs a worker's write that advances the task's step, re-reading the task when another write of
 * the same lease moved the step first (a worker's parallel calls), until it holds or the lease is
 * gone. `write` gets the task as read now and answers whether its conditional write held.
 */
export async function withLeasedTask<T>(caller: Caller, taskId: string, leaseId: string, write: (task: Task) => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const task = await leasedTask(caller, taskId, leaseId);
    const done = await write(task);
    if (done !== undefined) return done;
  }
  throw new ConflictError('task_busy', `Other writes of this lease kept changing task ${taskId} (${WRITE_ATTEMPTS} attempts); send the request again.`);
}


/**
 * A worker's slot of the tenant's cap is held in the lease's name, not the task's: of two claims
 * racing for one task, the loser takes and gives back a slot of its own, never the winner's.
 */
export function takeSlot(tenantId: string, leaseId: string, cap: number, nowMs: number, untilMs: number): Promise<boolean> {
  return taskSlotRepository.acquire(tenantId, leaseId, cap, nowMs, untilMs - nowMs + SLOT_GRACE_MS);
}

/** Gives the lease's slot of the tenant's cap back; a slot not given back ends with its lease. */
export async function releaseSlot(tenantId: string, leaseId: string | undefined): Promise<void> {
  if (!leaseId) return;
  await taskSlotRepository.release(tenantId, leaseId).catch((error: unknown) => logger.warn('task slot not released; its lease will end by itself', { lease_id: leaseId, error: String(error) }));
}
