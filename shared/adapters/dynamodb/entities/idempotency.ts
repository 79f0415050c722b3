import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** A request's idempotency key with its fingerprint and stored response (TTL 24 h). */
export const idempotencyEntity = defineEntity({
  entity: 'idempotency',
  tenantScoped: true,
  keys: {
    idempotency: (tenantId: string, idempotencyKey: string): Key => ({ pk: `${tenant(tenantId)}#IDEMPOTENCY#${idempotencyKey}`, sk: 'IDEMPOTENCY' }),
  },
  primaryKey: 'idempotency',
  indexes: [],
});
