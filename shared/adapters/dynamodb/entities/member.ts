import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const membersPartition = (tenantId: string) => `${tenant(tenantId)}#MEMBERS`;

/** A person's membership of a tenant, listed oldest first (user ids are time-ordered) in its tenant's partition. */
export const memberEntity = defineEntity({
  entity: 'member',
  tenantScoped: true,
  keys: {
    member: (tenantId: string, userId: string): Key => ({ pk: membersPartition(tenantId), sk: `MEMBER#${userId}` }),
    membersPartition,
  },
  primaryKey: 'member',
  indexes: [],
});
