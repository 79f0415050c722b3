import { apiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { API_KEY_PREFIX, bearerToken, generateApiKey, hashApiKey, hashesEqual, LAST_USED_RESOLUTION_MS, passesOfflineChecks, shouldRecordUse, type ApiKeyRecord } from '#shared/domain/api-key';
import { systemClock, type Clock } from '#shared/domain/clock';
import { UnauthorizedError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';

/**
 * Resolves an `Authorization` header to the key's tenant, or throws UnauthorizedError. A token
 * that fails the offline checks (a `gh_live_` key with a wrong checksum) never reaches the table.
 */
export async function authenticate(authorization: string | undefined, clock: Clock = systemClock): Promise<{ tenantId: string; keyId: string }> {
  const token = bearerToken(authorization);
  if (!token) throw new UnauthorizedError();
  if (!passesOfflineChecks(token)) throw new UnauthorizedError('The API key is unknown or revoked.');
  const keyHash = hashApiKey(token);
  const record = await apiKeyRepository.findByHash(keyHash);
  // The lookup is by hash; comparing again in constant time keeps timing independent of the key.
  if (!record || !hashesEqual(record.key_hash, keyHash) || record.revoked_at) throw new UnauthorizedError('The API key is unknown or revoked.');
  const now = clock.now();
  if (shouldRecordUse(record.last_used_at, now)) {
    await apiKeyRepository.touch(keyHash, now.toISOString(), new Date(now.getTime() - LAST_USED_RESOLUTION_MS + 1).toISOString());
  }
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
  if (plaintext.startsWith(API_KEY_PREFIX) && !passesOfflineChecks(plaintext)) {
    throw new Error(`An API key in GATEHOUSE_API_KEYS starts with '${API_KEY_PREFIX}' but its checksum does not match: mistyped? Use a key printed by 'npm run keys -- create', or one without that prefix.`);
  }
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
