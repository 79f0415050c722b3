import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { EVENT_SHARDS, keys, shardOf } from '#shared/adapters/dynamodb/keys';
import type { ServiceEvent } from '#shared/domain/event';

/**
 * The UTC day, `YYYY-MM-DD`, of the time inside an event id: the time bucket of the event keys.
 * Taken from the id (not `created_at`) so that listings, which bound by id, find every event.
 */
export function eventDay(eventId: string): string {
  return new Date(decodeTime(eventId.slice(4).toUpperCase())).toISOString().slice(0, 10);
}

/** The table item for an event. Events are only ever put, never updated. */
export function eventItem(event: ServiceEvent): Record<string, unknown> {
  const day = eventDay(event.event_id);
  return {
    ...keys.event(event.tenant_id, day, shardOf(event.event_id, EVENT_SHARDS), event.event_id),
    ...(event.task_id ? keys.eventsOfTaskListing(event.tenant_id, event.task_id, event.event_id) : {}),
    entity: 'event',
    ...event,
  };
}

const markedDays = new Set<string>();

/**
 * The transaction item that writes an event, after making sure the tenant's day marker exists.
 * The marker is written before the event (never after), so no event can exist on an unmarked
 * day; it is written once per process and day, not once per event.
 */
export async function eventPut(event: ServiceEvent): Promise<{ Put: { TableName: string; Item: Record<string, unknown> } }> {
  const day = eventDay(event.event_id);
  const marker = `${event.tenant_id}|${day}`;
  if (!markedDays.has(marker)) {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...keys.eventDay(event.tenant_id, day), entity: 'event_day', tenant_id: event.tenant_id, day } }));
    markedDays.add(marker);
  }
  return { Put: { TableName: tableName(), Item: eventItem(event) } };
}
