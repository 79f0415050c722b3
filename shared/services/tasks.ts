import { taskRepository, type TaskListQuery } from '#shared/adapters/dynamodb/task-repository';
import { systemClock } from '#shared/domain/clock';
import { InvalidRequestError, NotFoundError } from '#shared/domain/errors';
import { taskEvent } from '#shared/domain/events';
import type { Task } from '#shared/domain/task';
import { releaseSlot } from '#shared/services/worker-leases';

export async function getTask(tenantId: string, taskId: string): Promise<Task> {
  const task = await taskRepository.load(tenantId, taskId);
  if (!task) throw new NotFoundError('task', taskId);
  return task;
}

/** Newest first; with `sessionId` or `triggerId`, the tasks started in that session or by that trigger. */
export function listTasks(tenantId: string, query: Omit<TaskListQuery, 'origin'> & { sessionId?: string; triggerId?: string }) {
  const { sessionId, triggerId, ...rest } = query;
  if (sessionId && triggerId) throw new InvalidRequestError('Filter by session_id or by trigger_id, not both.', [{ path: 'query.trigger_id', message: 'cannot be combined with session_id' }]);
  const origin = sessionId ? { kind: 'SESSION' as const, id: sessionId } : triggerId ? { kind: 'TRIGGER' as const, id: triggerId } : undefined;
  return taskRepository.list(tenantId, { ...rest, ...(origin ? { origin } : {}) });
}

/** Cancels a waiting, running or parked task; a running agent stops at its next step. */
export async function cancelTask(tenantId: string, taskId: string): Promise<Task> {
  const task = await getTask(tenantId, taskId);
  const cancelled = await taskRepository.cancel(task, taskEvent('task.cancelled', task, {}, systemClock));
  // A worker's task gives its slot of the tenant's cap back now; its worker stops at its next heartbeat.
  // Read again: a worker may have claimed the task between the read above and the cancel.
  if (task.runs_on === 'worker') await releaseSlot(tenantId, (await taskRepository.load(tenantId, taskId))?.lease_id);
  return cancelled;
}
