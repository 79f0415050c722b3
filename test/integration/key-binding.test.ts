import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { documentClient, replaceDocumentClient } from '#shared/adapters/dynamodb/client';
import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import { keyBindingJobRepository } from '#shared/adapters/dynamodb/key-binding-job-repository';
import { generateApiKey, hashApiKey } from '#shared/domain/api-key';
import type { ServiceEvent } from '#shared/domain/event';
import { NO_TENANT, type Caller, type MemberRole } from '#shared/domain/roles';
import { authenticate, createApiKey, issueApiKey, keyStandings, revokeTenantApiKey } from '#shared/services/api-keys';
import { acceptInvitation } from '#shared/services/invitations';
import { applyKeyBindingJob, runKeyBindingJobs } from '#shared/services/key-binding-jobs';
import { addMember, changeMemberRole, removeMember } from '#shared/services/members';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

/**
 * API keys bound to the person who created them, on DynamoDB Local: capped or refused at
 * authentication the moment the person is demoted or removed, then capped or revoked for good by
 * the job written with the member change, with one event per key however often the job runs.
 */
const email = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@example.com`;
const asPerson = (tenantId: string, userId: string, role: MemberRole): Caller => ({ tenantId, principal: { type: 'user', id: userId }, role });
const bearer = (key: string) => `Bearer ${key}`;

async function eventsOf(tenantId: string, types: ServiceEvent['type'][]): Promise<ServiceEvent[]> {
  const events: ServiceEvent[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const listed = await eventRepository.list(tenantId, { limit: 100, types, cursor });
    events.push(...listed.events);
    if (!listed.nextCursor) break;
    cursor = listed.nextCursor;
  }
  return events;
}

async function pendingJobs(tenantId: string) {
  const jobs = [];
  for await (const job of keyBindingJobRepository.pending()) if (job.tenant_id === tenantId) jobs.push(job);
  return jobs;
}

/**
 * Invites `address` as an admin of the tenant and has the person accept, as the authorizer
 * resolves them before they belong to a tenant: a member who can sign in and make keys. (Removing
 * one still invited withdraws the invitation: such a person never acted in the tenant.)
 */
async function joinedAdmin(founder: Caller, address: string) {
  const record = await addMember(founder, { email: address, role: 'admin' });
  await acceptInvitation({ tenantId: NO_TENANT, principal: { type: 'user', id: `sub-${address}`, name: address }, role: 'invitee' }, founder.tenantId);
  return record;
}

/** A tenant with two admins: `ada` (whose keys are watched) and `boss` (who demotes or removes her). */
async function tenantWithAda() {
  const tenantId = uniqueTenant('bound');
  const founder: Caller = { tenantId, principal: { type: 'api_key', id: 'key_founder' }, role: 'admin' };
  const boss = await joinedAdmin(founder, email('boss'));
  const ada = await joinedAdmin(founder, email('ada'));
  return { tenantId, ada, bossCaller: asPerson(tenantId, boss.user_id, 'admin'), adaCaller: asPerson(tenantId, ada.user_id, 'admin') };
}

/**
 * The real client, except that the `at`-th TransactWriteItems call (1-based) fails as a dying
 * process would (`crash`), or runs `action` first. Records each transaction's size in `sizes`.
 */
function interceptedTransactions(real: DynamoDBDocumentClient, at: number, action: 'crash' | (() => Promise<void>), sizes: number[] = []) {
  let calls = 0;
  async function send(command: unknown): Promise<unknown> {
    if (command instanceof TransactWriteCommand) sizes.push(command.input.TransactItems?.length ?? 0);
    if (command instanceof TransactWriteCommand && ++calls === at) {
      if (action === 'crash') throw new Error('the process died here');
      replaceDocumentClient(undefined);
      await action();
      replaceDocumentClient(client);
    }
    return real.send(command as Parameters<DynamoDBDocumentClient['send']>[0]);
  }
  const client = new Proxy(real, { get: (target, property, receiver) => (property === 'send' ? send : Reflect.get(target, property, receiver)) });
  return client;
}

describe('API keys bound to their person, on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('key-binding');
  });

  afterEach(() => {
    replaceDocumentClient(undefined);
  });

  it('caps a demoted person’s keys at authentication at once, then for good with one api_key.role_capped each', async () => {
    const { tenantId, ada, adaCaller, bossCaller } = await tenantWithAda();
    const admin = await issueApiKey(adaCaller, { name: 'deploys', role: 'admin' });
    const operator = await issueApiKey(adaCaller, { name: 'ops', role: 'operator' });
    const viewer = await issueApiKey(adaCaller, { name: 'reads', role: 'viewer' });
    // A key made by her key is hers too: a bound key cannot mint an unbound one.
    const child = await issueApiKey({ tenantId, principal: { type: 'api_key', id: admin.record.key_id }, role: 'admin' }, { name: 'child', role: 'admin' });
    const operatorsKey = await createApiKey(tenantId, { name: 'cli' });

    await changeMemberRole(bossCaller, ada.user_id, 'viewer');

    // Before any job ran: the keys act as viewers, the tenant's own (unbound) key is untouched.
    expect(child.record.bound_to).toBe(ada.user_id);
    expect((await authenticate(bearer(admin.key))).role).toBe('viewer');
    expect((await authenticate(bearer(child.key))).role).toBe('viewer');
    expect((await authenticate(bearer(operatorsKey.key))).role).toBe('admin');
    expect(await pendingJobs(tenantId)).toEqual([expect.objectContaining({ user_id: ada.user_id, change: 'demoted', role: 'viewer', actor: bossCaller.principal })]);

    const report = await runKeyBindingJobs();
    const again = await runKeyBindingJobs();

    expect(report).toEqual({ jobsDone: 1, keysCapped: 3, keysRevoked: 0 });
    expect(again).toEqual({ jobsDone: 0, keysCapped: 0, keysRevoked: 0 });
    expect(await pendingJobs(tenantId)).toEqual([]);
    const stored = await apiKeyRepository.list(tenantId);
    expect(stored.map((record) => [record.name, record.role, record.granted_role])).toEqual([
      ['deploys', 'viewer', 'admin'],
      ['ops', 'viewer', 'operator'],
      ['reads', 'viewer', undefined],
      ['child', 'viewer', 'admin'],
      ['cli', undefined, undefined],
    ]);
    const capped = await eventsOf(tenantId, ['api_key.role_capped']);
    expect(capped.map((event) => [event.data.key_id, event.data.role, event.data.previous_role, event.data.reason, event.data.principal])).toEqual(
      expect.arrayContaining([
        [admin.record.key_id, 'viewer', 'admin', 'creator_demoted', bossCaller.principal],
        [operator.record.key_id, 'viewer', 'operator', 'creator_demoted', bossCaller.principal],
        [child.record.key_id, 'viewer', 'admin', 'creator_demoted', bossCaller.principal],
      ]),
    );
    expect(capped).toHaveLength(3);
    expect(viewer.record.bound_to).toBe(ada.user_id);

    // Promoted again, she does not re-arm the old keys: a cap is for good.
    await changeMemberRole(bossCaller, ada.user_id, 'admin');
    expect((await authenticate(bearer(admin.key))).role).toBe('viewer');
  });

  it('refuses a removed person’s keys at once (401, shown suspended), then revokes them with api_key.revoked', async () => {
    const { tenantId, ada, adaCaller, bossCaller } = await tenantWithAda();
    const first = await issueApiKey(adaCaller, { name: 'one', role: 'admin' });
    const second = await issueApiKey(adaCaller, { name: 'two', role: 'viewer' });

    await removeMember(bossCaller, ada.user_id);

    await expect(authenticate(bearer(first.key))).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticate(bearer(second.key))).rejects.toMatchObject({ code: 'unauthorized' });
    const standings = await keyStandings(tenantId, await apiKeyRepository.list(tenantId));
    expect([...standings.values()]).toEqual([{ role: undefined }, { role: undefined }]);

    await runKeyBindingJobs();

    const stored = await apiKeyRepository.list(tenantId);
    expect(stored.map((record) => [record.name, Boolean(record.revoked_at), record.revoked_reason])).toEqual([
      ['one', true, 'creator_removed'],
      ['two', true, 'creator_removed'],
    ]);
    const revoked = await eventsOf(tenantId, ['api_key.revoked']);
    expect(revoked.map((event) => [event.data.key_id, event.data.reason, event.data.principal])).toEqual([
      [first.record.key_id, 'creator_removed', bossCaller.principal],
      [second.record.key_id, 'creator_removed', bossCaller.principal],
    ]);
    expect(await pendingJobs(tenantId)).toEqual([]);
  });

  it('revokes 120 keys in transactions of at most 100 items, and a job that died half-way finishes without a second event', async () => {
    const { tenantId, ada, adaCaller, bossCaller } = await tenantWithAda();
    for (let batch = 0; batch < 12; batch++) await Promise.all(Array.from({ length: 10 }, (_, index) => issueApiKey(adaCaller, { name: `k${batch * 10 + index}`, role: 'viewer' })));
    await removeMember(bossCaller, ada.user_id);
    const jobs = await pendingJobs(tenantId);
    expect(jobs).toEqual([expect.objectContaining({ user_id: ada.user_id, change: 'removed' })]);
    const [job] = jobs;
    const sizes: number[] = [];
    const real = documentClient();
    // The first transaction commits, the second dies with the process.
    replaceDocumentClient(interceptedTransactions(real, 2, 'crash', sizes));

    await expect(applyKeyBindingJob(job)).rejects.toThrow('the process died here');
    replaceDocumentClient(undefined);
    const halfway = (await apiKeyRepository.list(tenantId)).filter((record) => record.revoked_at).length;
    await runKeyBindingJobs();

    expect(sizes.every((size) => size <= 100)).toBe(true);
    expect(halfway).toBe(50);
    expect((await apiKeyRepository.list(tenantId)).filter((record) => !record.revoked_at)).toEqual([]);
    const revoked = await eventsOf(tenantId, ['api_key.revoked']);
    expect(revoked).toHaveLength(120);
    expect(new Set(revoked.map((event) => event.data.key_id)).size).toBe(120);
    expect(await pendingJobs(tenantId)).toEqual([]);
  });

  it('reads again when a key changes under the job: an admin’s revocation meanwhile gets no second event', async () => {
    const { tenantId, ada, adaCaller, bossCaller } = await tenantWithAda();
    const first = await issueApiKey(adaCaller, { name: 'one', role: 'admin' });
    const second = await issueApiKey(adaCaller, { name: 'two', role: 'admin' });
    await changeMemberRole(bossCaller, ada.user_id, 'operator');
    const [job] = await pendingJobs(tenantId);
    // Between the job's read and its write, the boss revokes the first key.
    replaceDocumentClient(interceptedTransactions(documentClient(), 1, async () => void (await revokeTenantApiKey(bossCaller, first.record.key_id))));

    const done = await applyKeyBindingJob(job);

    expect(done).toEqual({ keysCapped: 1, keysRevoked: 0 });
    const stored = await apiKeyRepository.list(tenantId);
    expect(stored.map((record) => [record.name, record.role, Boolean(record.revoked_at)])).toEqual([
      ['one', 'admin', true],
      ['two', 'operator', false],
    ]);
    expect((await eventsOf(tenantId, ['api_key.revoked', 'api_key.role_capped'])).map((event) => [event.type, event.data.key_id])).toEqual([
      ['api_key.revoked', first.record.key_id],
      ['api_key.role_capped', second.record.key_id],
    ]);
  });

  it('leaves an agent key with its admin creator, and refuses then revokes it once she is no admin', async () => {
    const { tenantId, ada, adaCaller, bossCaller } = await tenantWithAda();
    // An agent key as POST /api-keys stores it (deploying its custom agent is another test's concern).
    const key = generateApiKey();
    const record = { key_id: 'key_agent_worker', tenant_id: tenantId, key_hash: hashApiKey(key), display_prefix: `${key.slice(0, 12)}…`, created_at: new Date().toISOString(), role: 'agent' as const, agent: 'acme-bot', created_by: adaCaller.principal, bound_to: ada.user_id };
    await apiKeyRepository.put(record);
    expect((await authenticate(bearer(key))).role).toBe('agent');

    await changeMemberRole(bossCaller, ada.user_id, 'operator');

    await expect(authenticate(bearer(key))).rejects.toMatchObject({ code: 'unauthorized' });
    await runKeyBindingJobs();
    expect((await apiKeyRepository.findById(tenantId, record.key_id))?.revoked_reason).toBe('creator_demoted');
  });
});
