import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import { ForbiddenError, NotFoundError } from '#shared/domain/errors';
import type { Caller } from '#shared/domain/roles';
import { authenticate, issueApiKey, listTenantApiKeys, revokeTenantApiKey } from '#shared/services/api-keys';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const callerOf = (tenantId: string, role: Caller['role'] = 'admin'): Caller => ({ tenantId, principal: { type: 'api_key', id: `key_creator_${role}` }, role });

describe('API keys as a resource, on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('apikey-resource');
  });

  it('never gives a key a role above its creator’s, and stores nothing then', async () => {
    const tenant = uniqueTenant('keys');

    await expect(issueApiKey(callerOf(tenant, 'operator'), { name: 'up', role: 'admin' })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(issueApiKey(callerOf(tenant, 'operator'), { name: 'sideways', role: 'approver' })).rejects.toBeInstanceOf(ForbiddenError);
    // Without a role a key is admin: above an operator too.
    await expect(issueApiKey(callerOf(tenant, 'operator'), { name: 'default' })).rejects.toBeInstanceOf(ForbiddenError);
    const { record } = await issueApiKey(callerOf(tenant, 'operator'), { name: 'same', role: 'operator' });
    await issueApiKey(callerOf(tenant, 'operator'), { name: 'below', role: 'viewer' });

    expect((await listTenantApiKeys(tenant, { limit: 10 })).apiKeys.map((key) => key.name)).toEqual(['same', 'below']);
    expect(record.created_by).toEqual({ type: 'api_key', id: 'key_creator_operator' });
    const events = (await eventRepository.list(tenant, { limit: 10 })).events;
    expect(events.map((event) => [event.type, event.data.name])).toEqual([['api_key.created', 'same'], ['api_key.created', 'below']]);
  });

  it('pages one tenant’s keys only, and refuses another tenant’s cursor', async () => {
    const [tenant, other] = [uniqueTenant('keys'), uniqueTenant('keys')];
    for (const name of ['one', 'two', 'three']) await issueApiKey(callerOf(tenant), { name, role: 'viewer' });
    await issueApiKey(callerOf(other), { name: 'foreign', role: 'viewer' });

    const first = await listTenantApiKeys(tenant, { limit: 2 });
    const second = await listTenantApiKeys(tenant, { limit: 2, cursor: first.nextCursor! });

    expect([...first.apiKeys, ...second.apiKeys].map((key) => key.name)).toEqual(['one', 'two', 'three']);
    expect(second.apiKeys.every((key) => key.tenant_id === tenant)).toBe(true);
    await expect(listTenantApiKeys(other, { limit: 2, cursor: first.nextCursor! })).rejects.toMatchObject({ code: 'invalid_cursor' });
  });

  it('revokes a key with one api_key.revoked event, again without another, and 404s another tenant’s key', async () => {
    const [tenant, other] = [uniqueTenant('keys'), uniqueTenant('keys')];
    const { key, record } = await issueApiKey(callerOf(tenant), { name: 'short-lived', role: 'viewer' });
    expect(await authenticate(`Bearer ${key}`)).toEqual({ tenantId: tenant, principal: { type: 'api_key', id: record.key_id, name: 'short-lived' }, role: 'viewer' });

    await expect(revokeTenantApiKey(callerOf(other), record.key_id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await apiKeyRepository.findByHash(record.key_hash))?.revoked_at).toBeUndefined();
    const revoked = await revokeTenantApiKey(callerOf(tenant), record.key_id);
    const again = await revokeTenantApiKey(callerOf(tenant), record.key_id);

    expect(again.revoked_at).toBe(revoked.revoked_at);
    await expect(authenticate(`Bearer ${key}`)).rejects.toMatchObject({ code: 'unauthorized' });
    const events = (await eventRepository.list(tenant, { limit: 10 })).events.filter((event) => event.type === 'api_key.revoked');
    expect(events.map((event) => event.data)).toEqual([{ key_id: record.key_id, name: 'short-lived', role: 'viewer', principal: { type: 'api_key', id: 'key_creator_admin' } }]);
    expect(JSON.stringify(events)).not.toContain(record.key_hash);
  });
});
