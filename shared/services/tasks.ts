import { taskRepository, type TaskListQuery } from '#shared/adapters/dynamodb/task-repository';
import { systemClock } from '#shared/domain/clock';
import { NotFoundError } from '#shared/domain/errors';
import { taskEvent } from '#shared/domain/events';
import type { Task } from '#shared/domain/task';

export async function getTask(tenantId: string, taskId: string): Promise<Task> {
  const task = await taskRepository.load(tenantId, taskId);
  if (!task) throw new NotFoundError('task', taskId);
  return task;
}

/** Newest first; with `sessionId`, the tasks started in that session. */
export function listTasks(tenantId: string, query: Omit<TaskListQuery, 'origin'> & { sessionId?: string }) {
  const { sessionId, ...rest } = query;
  return taskRepository.list(tenantId, { ...rest, ...(sessionId ? { origin: { kind: 'SESSION' as const, id: sessionId } } : {}) });
}

/** Cancels a waiting, running or parked task; a running agent stops at its next step. */
export async function cancelTask(tenantId: string, taskId: string): Promise<Task> {
  const task = await getTask(tenantId, taskId);
  return taskRepository.cancel(task, taskEvent('task.cancelled', task, {}, systemClock));
}
