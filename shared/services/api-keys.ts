import { apiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { bearerToken, generateApiKey, hashApiKey, hashesEqual, isWellFormedApiKey, type ApiKeyRecord } from '#shared/domain/api-key';
import { systemClock } from '#shared/domain/clock';
import { UnauthorizedError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';

/** Resolves an `Authorization` header to the key's tenant, or throws UnauthorizedError. */
export async function authenticate(authorization: string | undefined): Promise<{ tenantId: string; keyId: string }> {
  const token = bearerToken(authorization);
  if (!token || !isWellFormedApiKey(token)) throw new UnauthorizedError();
  const keyHash = hashApiKey(token);
  const record = await apiKeyRepository.findByHash(keyHash);
  // The lookup is by hash; comparing again in constant time keeps timing independent of the key.
  if (!record || !hashesEqual(record.key_hash, keyHash) || record.revoked_at) throw new UnauthorizedError('The API key is unknown or revoked.');
  await apiKeyRepository.touch(keyHash, systemClock.now().toISOString());
  return { tenantId: record.tenant_id, keyId: record.key_id };
}

/** Creates a key for a tenant. The plaintext key is returned once and never stored. */
export async function createApiKey(tenantId: string, plaintext: string = generateApiKey()): Promise<{ key: string; record: ApiKeyRecord }> {
  const record: ApiKeyRecord = {
    key_id: newId('key'),
    tenant_id: tenantId,
    key_hash: hashApiKey(plaintext),
    display_prefix: `${plaintext.slice(0, 12)}…`,
    created_at: systemClock.now().toISOString(),
  };
  await apiKeyRepository.put(record);
  return { key: plaintext, record };
}

/** Registers a given key unless it already exists (local runtime's GATEHOUSE_API_KEYS). */
export async function ensureApiKey(tenantId: string, plaintext: string): Promise<void> {
  const existing = await apiKeyRepository.findByHash(hashApiKey(plaintext));
  if (existing) {
    if (existing.tenant_id !== tenantId) throw new Error(`An API key in GATEHOUSE_API_KEYS is already registered to tenant '${existing.tenant_id}'.`);
    return;
  }
  await createApiKey(tenantId, plaintext);
}

export function listApiKeys(tenantId?: string): Promise<ApiKeyRecord[]> {
  return apiKeyRepository.list(tenantId);
}

export function revokeApiKey(keyId: string): Promise<ApiKeyRecord> {
  return apiKeyRepository.revoke(keyId, systemClock.now().toISOString());
}
