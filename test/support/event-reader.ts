import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import type { ServiceEvent } from '#shared/domain/event';

/** A task's events, oldest first, through the event log's task index. */
export async function taskEvents(tenantId: string, taskId: string): Promise<ServiceEvent[]> {
  const { events } = await eventRepository.after(tenantId, { taskId }, 'evt_', undefined, 1000);
  return events;
}
