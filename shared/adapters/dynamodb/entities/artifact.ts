import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** An artifact a task produced; its task's item lists it. */
export const artifactEntity = defineEntity({
  entity: 'artifact',
  tenantScoped: true,
  keys: {
    artifact: (tenantId: string, artifactId: string): Key => ({ pk: `${tenant(tenantId)}#ARTIFACT#${artifactId}`, sk: 'ARTIFACT' }),
  },
  primaryKey: 'artifact',
  indexes: [],
});
