import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const occurrencesPartition = (tenantId: string, scanId: string) => `${tenant(tenantId)}#SCAN#${scanId}#FINDINGS`;

/** A finding as one scan saw it, in the scan's own partition (sort key: severity, detector, finding). */
export const occurrenceEntity = defineEntity({
  entity: 'occurrence',
  tenantScoped: true,
  keys: {
    occurrence: (tenantId: string, scanId: string, sortKey: string): Key => ({ pk: occurrencesPartition(tenantId, scanId), sk: sortKey }),
    occurrencesPartition,
  },
  primaryKey: 'occurrence',
  indexes: [],
});
