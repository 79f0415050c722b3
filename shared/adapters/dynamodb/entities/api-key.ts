import { defineEntity, indexKey, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * An API key, stored by the hash of the key. Not tenant-scoped in its primary key: a request is
 * authenticated by the key it presents, before its tenant is known. The listing's sort key
 * begins with the tenant.
 */
export const apiKeyEntity = defineEntity({
  entity: 'api_key',
  tenantScoped: false,
  keys: {
    apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
    apiKeyListing: (tenantId: string, keyId: string) => indexKey('gsi1', 'APIKEYS', `${tenantId}#${keyId}`),
  },
  primaryKey: 'apiKey',
  indexes: [{ index: 'gsi1', key: 'apiKeyListing', copies: 'ALL' }],
});
