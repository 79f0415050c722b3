import type { Key } from '#shared/adapters/dynamodb/keys';
import { GSI3 } from '#shared/adapters/dynamodb/table-definition';

/** The one partition of the due-time index: local schedules are few, so one partition is plenty. */
export const SCHEDULES_DUE_PARTITION = 'SCHEDULES_DUE';

/**
 * Keys of the local scheduler's records (the table adapter; EventBridge keeps its own). The
 * due-time index sorts by `<at ISO>#<name>`: fixed-width UTC ISO strings sort as time does.
 */
export const scheduleKeys = {
  schedule: (name: string): Key => ({ pk: `SCHEDULE#${name}`, sk: 'SCHEDULE' }),
  dueIndex: (at: Date, name: string) => ({ [GSI3.partitionKey]: SCHEDULES_DUE_PARTITION, [GSI3.sortKey]: `${at.toISOString()}#${name}` }),
  /**
   * Exclusive upper bound of the index sort keys due at `now`: every `<now ISO>#<name>` sorts
   * below it because '$' follows '#', and every later instant sorts above it.
   */
  dueBefore: (now: Date): string => `${now.toISOString()}$`,
};
