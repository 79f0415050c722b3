import type { Clock } from '#shared/domain/clock';
import type { EventType, ServiceEvent } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import type { Task } from '#shared/domain/task';

/** Builds the event that records a change to a task. */
export function taskEvent(type: EventType, task: Pick<Task, 'tenant_id' | 'task_id' | 'agent'>, data: Record<string, unknown>, clock: Clock): ServiceEvent {
  const now = clock.now();
  return {
    event_id: newId('evt', now.getTime()),
    type,
    created_at: now.toISOString(),
    tenant_id: task.tenant_id,
    task_id: task.task_id,
    agent: task.agent,
    data: { task_id: task.task_id, ...data },
  };
}
