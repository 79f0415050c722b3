import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import { apiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { memberRepository } from '#shared/adapters/dynamodb/member-repository';
import { adminEvent } from '#shared/domain/admin-events';
import { API_KEY_PREFIX, bearerToken, boundPersonOf, generateApiKey, hashApiKey, hashesEqual, LAST_USED_RESOLUTION_MS, passesOfflineChecks, roleOf, shouldRecordUse, type ApiKeyRecord, type ApiKeySource, type KeyStanding } from '#shared/domain/api-key';
import { roleWithin } from '#shared/domain/key-binding';
import { systemClock, type Clock } from '#shared/domain/clock';
import { ForbiddenError, InvalidRequestError, NotFoundError, UnauthorizedError } from '#shared/domain/errors';
import { isCustomAgent } from '#shared/domain/agent-deployment';
import { newId } from '#shared/domain/ids';
import { allows, DEFAULT_ROLE, type Caller, type MemberRole, type Role } from '#shared/domain/roles';

/** A bound key's standing under its person's current role (undefined: the person is no member). */
function standingUnder(record: ApiKeyRecord, personRole: MemberRole | undefined): KeyStanding {
  if (!boundPersonOf(record)) return { role: roleOf(record) };
  return { role: personRole === undefined ? undefined : roleWithin(roleOf(record), personRole) };
}

/** What a key may do now: a bound key is capped at its person's current role, refused once they are gone. */
async function standingOf(record: ApiKeyRecord): Promise<KeyStanding> {
  const person = boundPersonOf(record);
  if (!person) return { role: roleOf(record) };
  return standingUnder(record, (await memberRepository.get(record.tenant_id, person))?.role);
}

/**
 * Resolves an `Authorization` header to the key's tenant, principal and role, or throws
 * UnauthorizedError. A token that fails the offline checks (a `gh_live_` key with a wrong
 * checksum) never reaches the table. A key bound to a person acts with at most that person's
 * current role, and not at all once they are removed: a demotion holds before the job that caps
 * the stored key has run.
 */
export async function authenticate(authorization: string | undefined, clock: Clock = systemClock): Promise<Caller> {
  const token = bearerToken(authorization);
  if (!token) throw new UnauthorizedError();
  if (!passesOfflineChecks(token)) throw new UnauthorizedError('The API key is unknown or revoked.');
  const keyHash = hashApiKey(token);
  const record = await apiKeyRepository.findByHash(keyHash);
  // The lookup is by hash; comparing again in constant time keeps timing independent of the key.
  if (!record || !hashesEqual(record.key_hash, keyHash) || record.revoked_at) throw new UnauthorizedError('The API key is unknown or revoked.');
  const { role } = await standingOf(record);
  // The same answer as a revoked key: the job revokes it shortly, and a caller learns nothing more.
  if (!role) throw new UnauthorizedError('The API key is unknown or revoked.');
  const now = clock.now();
  if (shouldRecordUse(record.last_used_at, now)) {
    await apiKeyRepository.touch(keyHash, now.toISOString(), new Date(now.getTime() - LAST_USED_RESOLUTION_MS + 1).toISOString());
  }
  return { tenantId: record.tenant_id, principal: { type: 'api_key', id: record.key_id, ...(record.name ? { name: record.name } : {}) }, role, ...(record.agent ? { agent: record.agent } : {}) };
}

export interface NewApiKey {
  /** The key itself; a fresh `gh_live_` key unless given (GATEHOUSE_API_KEYS). */
  plaintext?: string;
  source?: ApiKeySource;
  name?: string;
  /** Absent: the key is `admin`. */
  role?: Role;
}

function newRecord(tenantId: string, plaintext: string, fields: Omit<NewApiKey, 'plaintext'> & Pick<ApiKeyRecord, 'created_by' | 'agent' | 'bound_to'>): ApiKeyRecord {
  return {
    key_id: newId('key'),
    tenant_id: tenantId,
    key_hash: hashApiKey(plaintext),
    display_prefix: `${plaintext.slice(0, 12)}…`,
    created_at: systemClock.now().toISOString(),
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
  };
}

/**
 * Creates a key for a tenant outside the API (the keys CLI, the local runtime's keys). The
 * plaintext key is returned once and never stored.
 */
export async function createApiKey(tenantId: string, options: NewApiKey = {}): Promise<{ key: string; record: ApiKeyRecord }> {
  const plaintext = options.plaintext ?? generateApiKey();
  const record = newRecord(tenantId, plaintext, { source: options.source, name: options.name, role: options.role });
  await apiKeyRepository.put(record);
  return { key: plaintext, record };
}

/** The data of `api_key.*` events: never the key or its hash. */
function keyEventData(record: ApiKeyRecord) {
  return { key_id: record.key_id, name: record.name ?? null, role: roleOf(record), ...(record.agent ? { agent: record.agent } : {}) };
}

/** The slug of the tenant's custom agent an agent key will work for; a built-in or unknown agent is 400. */
async function workerAgentOf(tenantId: string, slug: string): Promise<string> {
  const deployment = await agentRepository.findBySlug(tenantId, slug);
  if (!deployment || !isCustomAgent(deployment)) {
    const why = deployment ? 'is built in: Gatehouse runs its tasks itself' : 'is not a custom agent deployed in this tenant';
    throw new InvalidRequestError(`Agent '${slug}' ${why}; an agent key works for a custom agent (POST /v1/agents/deploy with a manifest).`, [{ path: 'body.agent', message: why }], 'agent_not_deployed');
  }
  return deployment.agent_slug;
}

/**
 * The person a new key of `caller` is bound to: the caller if a person, else the person the
 * calling key is bound to (so a bound key cannot mint an unbound one). Keys of unbound keys (made
 * outside the API: the tenant's operators') are unbound too.
 */
async function bindingFor(caller: Caller): Promise<string | undefined> {
  if (caller.principal.type === 'user') return caller.principal.id;
  const creator = await apiKeyRepository.findById(caller.tenantId, caller.principal.id);
  return creator ? boundPersonOf(creator) : undefined;
}

/**
 * POST /api-keys: a key created by `caller`, with `api_key.created` in the same transaction. A
 * key can never get a role above its creator's (403), and is bound to its creator's person.
 */
export async function issueApiKey(caller: Caller, request: { name: string; role?: Role; agent?: string }): Promise<{ key: string; record: ApiKeyRecord }> {
  const role = request.role ?? DEFAULT_ROLE;
  // `agent` is outside the line of roles: an admin (the only one reaching this route) makes agent keys.
  if (role === 'agent' ? caller.role !== 'admin' : !allows(caller.role, role)) throw new ForbiddenError(`A key can not get a role above its creator's: '${caller.role}' can not create a '${role}' key.`);
  const agent = role === 'agent' ? await workerAgentOf(caller.tenantId, request.agent ?? '') : undefined;
  const plaintext = generateApiKey();
  const record = newRecord(caller.tenantId, plaintext, { name: request.name, role, created_by: caller.principal, agent, bound_to: await bindingFor(caller) });
  await apiKeyRepository.put(record, adminEvent('api_key.created', caller.tenantId, caller.principal, keyEventData(record), systemClock));
  return { key: plaintext, record };
}

/** GET /api-keys: the tenant's keys, revoked ones included (with `revoked_at`), oldest first. */
export function listTenantApiKeys(tenantId: string, query: { limit: number; cursor?: string }) {
  return apiKeyRepository.listPage(tenantId, query);
}

/** What each of a tenant's keys may do now (by key id), with one read of the tenant's members. */
export async function keyStandings(tenantId: string, records: ApiKeyRecord[]): Promise<Map<string, KeyStanding>> {
  const roles = records.some((record) => boundPersonOf(record)) ? new Map((await memberRepository.listAll(tenantId)).map((member) => [member.user_id, member.role])) : new Map<string, MemberRole>();
  return new Map(records.map((record) => [record.key_id, standingUnder(record, roles.get(boundPersonOf(record) ?? ''))]));
}

/**
 * DELETE /api-keys/{key_id}: revokes the tenant's key, with `api_key.revoked` in the same
 * transaction; revoking a revoked key again changes nothing. Another tenant's key is 404.
 */
export async function revokeTenantApiKey(caller: Caller, keyId: string): Promise<ApiKeyRecord> {
  const record = await apiKeyRepository.findById(caller.tenantId, keyId);
  if (!record) throw new NotFoundError('api_key', keyId);
  if (record.revoked_at) return record;
  const now = systemClock.now().toISOString();
  return apiKeyRepository.revokeWithEvent(record, now, adminEvent('api_key.revoked', caller.tenantId, caller.principal, keyEventData(record), systemClock));
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
    await createApiKey(tenantId, { plaintext, source: 'env' });
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
  const { key } = await createApiKey('dev', { source: 'dev' });
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
