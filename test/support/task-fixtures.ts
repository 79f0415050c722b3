import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { systemClock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import type { Task } from '#shared/domain/task';
import { initialStatus, type TaskShape } from '#shared/domain/task-state';

/** Stores a new waiting task straight through the repository (no queue involved). */
export async function storedTask(tenantId: string, overrides: Partial<Task> & { shape?: TaskShape } = {}): Promise<Task> {
  const shape = overrides.shape ?? 'slug';
  const now = new Date().toISOString();
  const task: Task = {
    task_id: newId('tsk'),
    tenant_id: tenantId,
    shape,
    agent: 'ai-readiness-agent',
    agent_id: 'agt_test',
    task_type: 'ai_readiness.full_audit',
    input: { scope: 'full' },
    status: initialStatus(shape),
    priority: 'normal',
    created_at: now,
    updated_at: now,
    step: 0,
    artifacts: {},
    decisions: {},
    ...overrides,
  };
  await taskRepository.create(task, taskEvent('task.created', task, {}, systemClock));
  return task;
}
