import { defineEntity, indexKey, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const projectFindingsPartition = (tenantId: string, projectId: string) => `${tenant(tenantId)}#PROJECT#${projectId}#FINDINGS`;

/** A finding: one problem of a project, the same across scans, with its lifecycle; listed per project. */
export const findingEntity = defineEntity({
  entity: 'finding',
  tenantScoped: true,
  keys: {
    finding: (tenantId: string, findingId: string): Key => ({ pk: `${tenant(tenantId)}#FINDING#${findingId}`, sk: 'FINDING' }),
    findingListing: (tenantId: string, projectId: string, findingId: string) => indexKey('gsi1', projectFindingsPartition(tenantId, projectId), findingId),
    projectFindingsPartition,
  },
  primaryKey: 'finding',
  indexes: [{ index: 'gsi1', key: 'findingListing', copies: 'ALL' }],
});
