import type { ServiceEvent } from '#shared/domain/event';
import { keys } from '#shared/adapters/dynamodb/keys';

/** The table item for an event. Events are only ever put, never updated. */
export function eventItem(event: ServiceEvent): Record<string, unknown> {
  const taskId = event.task_id ?? 'none';
  return {
    ...keys.event(event.tenant_id, taskId, event.event_id),
    ...keys.eventListing(event.tenant_id, event.event_id),
    entity: 'event',
    ...event,
  };
}
