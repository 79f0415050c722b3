import { apiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { API_KEY_PREFIX, bearerToken, generateApiKey, hashApiKey, hashesEqual, LAST_USED_RESOLUTION_MS, passesOfflineChecks, shouldRecordUse, type ApiKeyRecord, type ApiKeySource } from '#shared/domain/api-key';
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
export async function createApiKey(tenantId: string, plaintext: string = generateApiKey(), source?: ApiKeySource): Promise<{ key: string; record: ApiKeyRecord }> {
  const record: ApiKeyRecord = {
    key_id: newId('key'),
    tenant_id: tenantId,
    key_hash: hashApiKey(plaintext),
    display_prefix: `${plaintext.slice(0, 12)}…`,
    created_at: systemClock.now().toISOString(),
    ...(source ? { source } : {}),
  };
  await apiKeyRepository.put(record);
  return { key: plaintext, record };
}

/**
 * Registers a key of the local runtime's GATEHOUSE_API_KEYS as managed by it (`env`). A listed key
 * that is already managed works again if it was revoked (the variable lists it: it is meant to
 * work); a key of the keys CLI listed there is left as it is.
 */
export async function ensureApiKey(tenantId: string, plaintext: string): Promise<void> {
  if (plaintext.startsWith(API_KEY_PREFIX) && !passesOfflineChecks(plaintext)) {
    throw new Error(`An API key in GATEHOUSE_API_KEYS starts with '${API_KEY_PREFIX}' but its checksum does not match: mistyped? Use a key printed by 'npm run keys -- create', or one without that prefix.`);
  }
  const existing = await apiKeyRepository.findByHash(hashApiKey(plaintext));
  if (!existing) {
    await createApiKey(tenantId, plaintext, 'env');
    return;
  }
  if (existing.tenant_id !== tenantId) throw new Error(`An API key in GATEHOUSE_API_KEYS is already registered to tenant '${existing.tenant_id}'.`);
  // A key of the keys CLI (no source) is never touched; a managed one becomes the variable's, live.
  if (existing.source === undefined || (existing.source === 'env' && !existing.revoked_at)) return;
  await apiKeyRepository.manage(existing.key_hash, 'env');
}

/**
 * The local runtime's key for tenant `dev` when GATEHOUSE_API_KEYS is unset: `previous` (the one
 * it printed before) while that is still its live dev key, otherwise a fresh one.
 */
export async function ensureDevApiKey(previous: string | undefined): Promise<{ key: string; created: boolean }> {
  if (previous) {
    const record = await apiKeyRepository.findByHash(hashApiKey(previous));
    if (record?.source === 'dev' && record.tenant_id === 'dev' && !record.revoked_at) return { key: previous, created: false };
  }
  const { key } = await createApiKey('dev', generateApiKey(), 'dev');
  return { key, created: true };
}

/**
 * Revokes every live key the local runtime manages (`env` and `dev`) except the `kept` ones, the
 * keys this start registered: a key removed from GATEHOUSE_API_KEYS, or a dev key of an earlier
 * start, stops working. Keys of the keys CLI are never touched.
 */
export async function revokeManagedApiKeysExcept(kept: string[]): Promise<ApiKeyRecord[]> {
  const keptHashes = new Set(kept.map(hashApiKey));
  const now = systemClock.now().toISOString();
  const stale = (await apiKeyRepository.list()).filter((record) => record.source && !record.revoked_at && !keptHashes.has(record.key_hash));
  const revoked: ApiKeyRecord[] = [];
  for (const record of stale) revoked.push(await apiKeyRepository.revokeRecord(record, now));
  return revoked;
}

export function listApiKeys(tenantId?: string): Promise<ApiKeyRecord[]> {
  return apiKeyRepository.list(tenantId);
}

export function revokeApiKey(keyId: string): Promise<ApiKeyRecord> {
  return apiKeyRepository.revoke(keyId, systemClock.now().toISOString());
}
