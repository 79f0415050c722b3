import { defineEntity, indexKey, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const projectsPartition = (tenantId: string) => `${tenant(tenantId)}#PROJECTS`;

/** A project: a site a tenant scans, listed per tenant. */
export const projectEntity = defineEntity({
  entity: 'project',
  tenantScoped: true,
  keys: {
    project: (tenantId: string, projectId: string): Key => ({ pk: `${tenant(tenantId)}#PROJECT#${projectId}`, sk: 'PROJECT' }),
    projectListing: (tenantId: string, projectId: string) => indexKey('gsi1', projectsPartition(tenantId), projectId),
    projectsPartition,
  },
  primaryKey: 'project',
  indexes: [{ index: 'gsi1', key: 'projectListing', copies: 'ALL' }],
});
