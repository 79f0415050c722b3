import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** Leases of the tasks a tenant has running: the cap on its share of the workers. */
export const taskSlotsEntity = defineEntity({
  entity: 'task_slots',
  tenantScoped: true,
  keys: {
    taskSlots: (tenantId: string): Key => ({ pk: `${tenant(tenantId)}#TASKSLOTS`, sk: 'TASKSLOTS' }),
  },
  primaryKey: 'taskSlots',
  indexes: [],
});
