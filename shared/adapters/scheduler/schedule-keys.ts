import { scheduleEntity } from '#shared/adapters/dynamodb/entities/schedule';

export { SCHEDULES_DUE_PARTITION } from '#shared/adapters/dynamodb/entities/schedule';

/** Keys of the local scheduler's records (the table adapter; EventBridge keeps its own), declared with their entity. */
export const scheduleKeys = scheduleEntity.keys;
