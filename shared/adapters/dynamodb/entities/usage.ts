import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * Counter items a tenant's usage is added to as the work happens. A month is spread over
 * USAGE_SHARDS items: every counted write joins the transaction of the change it counts, and
 * transactions that touch one item at the same time refuse each other, so one item per month
 * would make a busy tenant's tasks contend. The month's usage is the sum of its shards.
 */
export const USAGE_SHARDS = 8;

const usagePartition = (tenantId: string) => `${tenant(tenantId)}#USAGE`;

export const usageEntity = defineEntity({
  entity: 'usage',
  tenantScoped: true,
  keys: {
    /** One shard of a month's counters; `month` is `YYYY-MM` (UTC). */
    usage: (tenantId: string, month: string, shard: number | string): Key => ({ pk: usagePartition(tenantId), sk: `${month}#${shard}` }),
    usagePartition,
  },
  primaryKey: 'usage',
  indexes: [],
});
