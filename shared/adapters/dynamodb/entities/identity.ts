import { defineEntity, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * A signed-in person's identity at the OpenID issuer (issuer and `sub`) bound to a membership.
 * Not tenant-scoped: a request carrying an access token is resolved by its issuer and subject,
 * before its tenant is known.
 */
export const identityEntity = defineEntity({
  entity: 'identity',
  tenantScoped: false,
  keys: {
    identity: (issuer: string, sub: string): Key => ({ pk: `IDENTITY#${issuer}#${sub}`, sk: 'IDENTITY' }),
  },
  primaryKey: 'identity',
  indexes: [],
});
