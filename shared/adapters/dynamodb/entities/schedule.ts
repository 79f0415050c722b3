import { defineEntity, indexKey, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** The one partition of the due-time index: local schedules are few, so one partition is plenty. */
export const SCHEDULES_DUE_PARTITION = 'SCHEDULES_DUE';

/**
 * A one-time schedule of the local runtime's table scheduler (on AWS, EventBridge Scheduler
 * holds them). Not tenant data: names are the service's own. The due-time index sorts by
 * `<at ISO>#<name>`: fixed-width UTC ISO strings sort as time does.
 */
export const scheduleEntity = defineEntity({
  entity: 'schedule',
  tenantScoped: false,
  keys: {
    schedule: (name: string): Key => ({ pk: `SCHEDULE#${name}`, sk: 'SCHEDULE' }),
    dueIndex: (at: Date, name: string) => indexKey('gsi3', SCHEDULES_DUE_PARTITION, `${at.toISOString()}#${name}`),
    /**
     * Exclusive upper bound of the index sort keys due at `now`: every `<now ISO>#<name>` sorts
     * below it because '$' follows '#', and every later instant sorts above it.
     */
    dueBefore: (now: Date): string => `${now.toISOString()}$`,
  },
  primaryKey: 'schedule',
  indexes: [
    {
      index: 'gsi3',
      key: 'dueIndex',
      // The runner reads due schedules from the index alone; the claim is the one attribute set later.
      copies: ['name', 'at', 'target', 'payload', 'attempts', 'claimed_until'],
    },
  ],
});
