import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** A tenant's limits set by an operator (`npm run keys -- limits`), overriding the defaults. */
export const tenantLimitsEntity = defineEntity({
  entity: 'tenant_limits',
  tenantScoped: true,
  keys: {
    tenantLimits: (tenantId: string): Key => ({ pk: tenant(tenantId), sk: 'LIMITS' }),
  },
  primaryKey: 'tenantLimits',
  indexes: [],
});
