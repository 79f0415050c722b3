import { workerTaskRepository } from '#shared/adapters/dynamodb/worker-task-repository';
import { systemClock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import type { Caller } from '#shared/domain/roles';
import type { Task, TaskError } from '#shared/domain/task';
import { DEFAULT_LEASE_SECONDS, leaseExpiry } from '#shared/domain/task-lease';
import { effectiveLimits } from '#shared/services/tenant-limits';
import { leasedTask, leaseLost, releaseSlot, takeSlot, withLeasedTask, workerTask } from '#shared/services/worker-leases';

/**
 * A worker's calls that keep or end its lease (docs/workers.md): heartbeats, complete, fail and
 * giving the task back. Each is one conditional write on the lease; a lost lease is 409.
 */

export interface HeartbeatRequest {
  lease_id: string;
  lease_seconds?: number;
  progress?: number;
  message?: string;
}

/**
 * Extends the lease (and the task's slot of the tenant's cap with it); with `progress`, records
 * `task.progress`. A task cancelled under this lease answers `cancel_requested` instead of 409, so
 * the worker learns why to stop.
 */
export async function heartbeat(caller: Caller, taskId: string, request: HeartbeatRequest): Promise<{ lease_expires_at: string; cancel_requested: boolean }> {
  const current = await workerTask(caller, taskId);
  if (cancelledUnder(current, request.lease_id)) return cancelAnswer(current);
  const task = await leasedTask(caller, taskId, request.lease_id);
  const now = systemClock.now();
  const expiresAt = leaseExpiry(now, request.lease_seconds ?? task.lease_seconds ?? DEFAULT_LEASE_SECONDS);
  const events = request.progress === undefined ? [] : [taskEvent('task.progress', task, { message: request.message ?? '', progress: request.progress }, systemClock)];
  if (!(await workerTaskRepository.heartbeat(task, { leaseId: request.lease_id }, expiresAt, now.toISOString(), events))) {
    const after = await workerTask(caller, taskId);
    if (cancelledUnder(after, request.lease_id)) return cancelAnswer(after);
    // Another write of this lease won the race: the lease still holds, and the next heartbeat extends it.
    if (after.status === 'running' && after.lease_id === request.lease_id) return { lease_expires_at: after.lease_expires_at ?? expiresAt, cancel_requested: false };
    throw leaseLost(after, request.lease_id);
  }
  const { taskConcurrency } = await effectiveLimits(task.tenant_id);
  await takeSlot(task.tenant_id, request.lease_id, taskConcurrency, now.getTime(), Date.parse(expiresAt));
  return { lease_expires_at: expiresAt, cancel_requested: false };
}

/** A person cancelled the task while this lease held it: the worker's heartbeat learns it (not a 409). */
const cancelledUnder = (task: Task, leaseId: string) => task.status === 'cancelled' && task.lease_id === leaseId;
const cancelAnswer = (task: Task) => ({ lease_expires_at: task.completed_at ?? systemClock.now().toISOString(), cancel_requested: true });

/** The worker finished: the task is complete with the artifacts it emitted. */
export function completeTask(caller: Caller, taskId: string, leaseId: string): Promise<Task> {
  return end(caller, taskId, leaseId, (task) => {
    const event = taskEvent('task.complete', task, { artifact_count: Object.keys(task.artifacts).length }, systemClock);
    return { write: () => workerTaskRepository.complete(task, { leaseId }, event), ended: { status: 'complete', completed_at: event.created_at } };
  });
}

/** The worker gave up: the task fails with the worker's error code and message. */
export function failTask(caller: Caller, taskId: string, leaseId: string, error: TaskError): Promise<Task> {
  return end(caller, taskId, leaseId, (task) => {
    const event = taskEvent('task.failed', task, { error }, systemClock);
    return { write: () => workerTaskRepository.fail(task, { leaseId }, error, event), ended: { status: 'failed', completed_at: event.created_at, error } };
  });
}

/** The worker gives the task back (it is shutting down): the task waits for the next claim; no lease is counted lost. */
export function releaseTask(caller: Caller, taskId: string, leaseId: string): Promise<Task> {
  return end(caller, taskId, leaseId, (task) => {
    const event = taskEvent('task.requeued', task, { reason: 'released', lost_leases: task.lost_leases ?? 0 }, systemClock);
    return { write: () => workerTaskRepository.release(task, { leaseId }, event), ended: { status: task.shape === 'slug' ? 'queued' : 'pending' } };
  });
}

/** One lease-ending write (again if another write of the lease raced it), then the task's slot given back. */
async function end(caller: Caller, taskId: string, leaseId: string, plan: (task: Task) => { write: () => Promise<boolean>; ended: Partial<Task> }): Promise<Task> {
  const ended = await withLeasedTask(caller, taskId, leaseId, async (task) => {
    const { write, ended: fields } = plan(task);
    return (await write()) ? { ...task, ...fields } : undefined;
  });
  await releaseSlot(ended.tenant_id, leaseId);
  return ended;
}
