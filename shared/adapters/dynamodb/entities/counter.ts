import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * How many items of a kind a tenant has (webhooks, triggers, integrations, custom agents): raised
 * in the transaction that creates one, only while below the cap, lowered in the one that deletes
 * one (tenant-count-repository.ts). An item of its own per kind, apart from the tenant partition
 * that listings query.
 */
export const tenantCountEntity = defineEntity({
  entity: 'tenant_count',
  tenantScoped: true,
  keys: {
    tenantCount: (tenantId: string, kind: string): Key => ({ pk: `${tenant(tenantId)}#COUNT#${kind}`, sk: 'COUNT' }),
  },
  primaryKey: 'tenantCount',
  indexes: [],
});

/**
 * The tasks event triggers started from one originating (root) task, down its whole chain: raised
 * with each triggered task's creation, only while below the fan-out budget. Expires with the table's
 * TTL some weeks after the chain (no chain runs that long).
 */
export const fanOutBudgetEntity = defineEntity({
  entity: 'fan_out_budget',
  tenantScoped: true,
  keys: {
    fanOutBudget: (tenantId: string, rootTaskId: string): Key => ({ pk: `${tenant(tenantId)}#FANOUT#${rootTaskId}`, sk: 'FANOUT' }),
  },
  primaryKey: 'fanOutBudget',
  indexes: [],
});
