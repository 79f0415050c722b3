import { defineEntity, indexKey, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** Partitions a tenant's events of one day are spread over (see docs/data-model.md). */
export const EVENT_SHARDS = 4;

const eventShardPartition = (tenantId: string, day: string, shard: number) => `${tenant(tenantId)}#EVENTS#${day}#${shard}`;
const eventsOfTaskPartition = (tenantId: string, taskId: string) => `${tenant(tenantId)}#TASK#${taskId}#EVENTS`;
const eventDaysPartition = (tenantId: string) => `${tenant(tenantId)}#EVENTDAYS`;

/** An event of the log: a tenant-day spread over EVENT_SHARDS partitions by event id; a task's events in gsi1. */
export const eventEntity = defineEntity({
  entity: 'event',
  tenantScoped: true,
  keys: {
    event: (tenantId: string, day: string, shard: number, eventId: string): Key => ({ pk: eventShardPartition(tenantId, day, shard), sk: eventId }),
    eventShardPartition,
    eventsOfTaskListing: (tenantId: string, taskId: string, eventId: string) => indexKey('gsi1', eventsOfTaskPartition(tenantId, taskId), eventId),
    eventsOfTaskPartition,
  },
  primaryKey: 'event',
  indexes: [
    {
      index: 'gsi1',
      key: 'eventsOfTaskListing',
      copies: 'ALL',
      sparse: { rule: 'events of a task (those with a task_id)', holds: (item) => Boolean(item.task_id) },
    },
  ],
});

/** One marker per tenant and day that has events, so listings skip empty days. */
export const eventDayEntity = defineEntity({
  entity: 'event_day',
  tenantScoped: true,
  keys: {
    eventDay: (tenantId: string, day: string): Key => ({ pk: eventDaysPartition(tenantId), sk: day }),
    eventDaysPartition,
  },
  primaryKey: 'eventDay',
  indexes: [],
});
