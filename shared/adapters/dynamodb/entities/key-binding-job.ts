import { defineEntity, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * The follow-up jobs of people demoted or removed (shared/domain/key-binding.ts), in one partition
 * shared by all tenants, the tenant first in the sort key: the recurring job that caps and revokes
 * their keys finds every pending job with one query, never a Scan. Jobs are few (one per demotion
 * or removal) and short-lived (deleted once done), so one partition never runs hot.
 */
export const KEY_BINDING_JOBS_PARTITION = 'KEY_BINDING_JOBS';

export const keyBindingJobEntity = defineEntity({
  entity: 'key_binding_job',
  tenantScoped: true,
  keys: {
    keyBindingJob: (tenantId: string, jobId: string): Key => ({ pk: KEY_BINDING_JOBS_PARTITION, sk: `${tenantId}#${jobId}` }),
  },
  primaryKey: 'keyBindingJob',
  indexes: [],
});
