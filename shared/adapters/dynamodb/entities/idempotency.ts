import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * A request's idempotency key with its fingerprint and stored response (TTL 24 h), scoped to the
 * tenant and the principal (key or person id) that sent it: another principal's same key is
 * another record, so no one is answered with another's result.
 */
export const idempotencyEntity = defineEntity({
  entity: 'idempotency',
  tenantScoped: true,
  keys: {
    // Principal ids (`key_…`, `usr_…`) hold no `#`, so the key after them cannot pose as another's.
    idempotency: (tenantId: string, principalId: string, idempotencyKey: string): Key => ({ pk: `${tenant(tenantId)}#IDEMPOTENCY#${principalId}#${idempotencyKey}`, sk: 'IDEMPOTENCY' }),
  },
  primaryKey: 'idempotency',
  indexes: [],
});
