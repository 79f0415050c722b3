import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** A deployed agent: in the tenant's own partition, one item per catalog slug. */
export const agentEntity = defineEntity({
  entity: 'agent',
  tenantScoped: true,
  keys: {
    agent: (tenantId: string, slug: string): Key => ({ pk: tenant(tenantId), sk: `AGENT#${slug}` }),
    agentPrefix: 'AGENT#',
    tenantPartition: (tenantId: string) => tenant(tenantId),
  },
  primaryKey: 'agent',
  indexes: [],
});
