import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** The tenant's plan and retention choice (one item; absent = default plan, plan defaults). */
export const tenantSettingsEntity = defineEntity({
  entity: 'tenant_settings',
  tenantScoped: true,
  keys: {
    tenantSettings: (tenantId: string): Key => ({ pk: tenant(tenantId), sk: 'SETTINGS' }),
  },
  primaryKey: 'tenantSettings',
  indexes: [],
});
