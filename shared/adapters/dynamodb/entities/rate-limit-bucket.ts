import { defineEntity, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * Partition keys of the request budgets begin with this. Functions of read-only routes may write
 * only there (an IAM `dynamodb:LeadingKeys` condition), so it must not prefix anything else.
 */
export const RATE_LIMIT_PARTITION_PREFIX = 'RATELIMIT#';

/**
 * A tenant's request budget (GCRA state). Not under `TENANT#`: its own partition prefix is what
 * lets read-only routes write it and nothing else.
 */
export const rateLimitBucketEntity = defineEntity({
  entity: 'rate_limit_bucket',
  tenantScoped: false,
  keys: {
    rateLimitBucket: (tenantId: string): Key => ({ pk: `${RATE_LIMIT_PARTITION_PREFIX}${tenantId}`, sk: 'BUCKET' }),
  },
  primaryKey: 'rateLimitBucket',
  indexes: [],
});
