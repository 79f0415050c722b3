import type { Clock } from '#shared/domain/clock';
import type { EventType, ServiceEvent } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import type { Task } from '#shared/domain/task';

/** The fields that say what an event is about (its task, agent, approval or scan). */
export type EventSubject = Pick<ServiceEvent, 'tenant_id' | 'task_id' | 'agent' | 'approval_id' | 'scan_id'>;

/** An event of `type` about `subject`, with its id and time from `clock` (the id is its write time). */
export function eventAbout(type: EventType, subject: EventSubject, data: Record<string, unknown>, clock: Clock): ServiceEvent {
  const now = clock.now();
  return { event_id: newId('evt', now.getTime()), type, created_at: now.toISOString(), ...subject, data };
}

/** Builds the event that records a change to a task. */
export function taskEvent(type: EventType, task: Pick<Task, 'tenant_id' | 'task_id' | 'agent'>, data: Record<string, unknown>, clock: Clock): ServiceEvent {
  return eventAbout(type, { tenant_id: task.tenant_id, task_id: task.task_id, agent: task.agent }, { task_id: task.task_id, ...data }, clock);
}
