import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signIn } from '../support/sign-in';

/**
 * The members routes over HTTP, called by people signed in with the local provider: admins only,
 * the last admin kept, events naming the person who acted, tenants apart, a removed member's
 * token refused.
 */
const suffix = randomBytes(3).toString('hex');
const [tenantA, tenantB] = [`members-a-${suffix}`, `members-b-${suffix}`];
const users = [
  { email: 'ada@a.example', password: 'ada-secret', tenantId: tenantA, role: 'admin' as const },
  { email: 'vic@a.example', password: 'vic-secret', tenantId: tenantA, role: 'viewer' as const },
  { email: 'bea@b.example', password: 'bea-secret', tenantId: tenantB, role: 'admin' as const },
];
let runtime: TestRuntime;
let ada: ReturnType<typeof apiClient>;
let vic: ReturnType<typeof apiClient>;
let bea: ReturnType<typeof apiClient>;
let adaId: string;

describe('members over HTTP, as signed-in people', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('members', { workers: false, users });
    [ada, vic, bea] = await Promise.all(users.map(async (user) => apiClient(runtime.baseUrl, await signIn(runtime.baseUrl, user.email, user.password))));
    adaId = (await ada('GET', '/me')).body.principal.id;
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('lists the tenant’s members to an admin, the configured ones active once signed in', async () => {
    await vic('GET', '/me');

    const list = await ada('GET', '/members');

    expect(list.status).toBe(200);
    expect(list.body.members.map((member: any) => [member.email, member.role, member.status, member.added_by])).toEqual([
      ['ada@a.example', 'admin', 'active', null],
      ['vic@a.example', 'viewer', 'active', null],
    ]);
    expect(list.body.next_cursor).toBeNull();
  });

  it('refuses every members route to a viewer with 403, changing nothing', async () => {
    const vicId = (await vic('GET', '/me')).body.principal.id;
    const answers = [await vic('GET', '/members'), await vic('POST', '/members', { email: 'new@a.example', role: 'viewer' }), await vic('PATCH', `/members/${vicId}`, { role: 'admin' }), await vic('DELETE', `/members/${adaId}`)];

    expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual(Array(4).fill([403, 'forbidden']));
    expect((await ada('GET', '/members')).body.members).toHaveLength(2);
  });

  it('invites, changes and removes a member, each with its event naming the person who acted', async () => {
    const created = await ada('POST', '/members', { email: 'Ana@A.example', role: 'approver' }, { 'Idempotency-Key': `invite-${suffix}` });
    const replayed = await ada('POST', '/members', { email: 'Ana@A.example', role: 'approver' }, { 'Idempotency-Key': `invite-${suffix}` });
    const userId = created.body.user_id;
    const changed = await ada('PATCH', `/members/${userId}`, { role: 'operator' });
    const removed = await ada('DELETE', `/members/${userId}`);

    expect(created.status).toBe(201);
    expect(created.body).toEqual({ user_id: expect.stringMatching(/^usr_/), email: 'ana@a.example', role: 'approver', status: 'invited', created_at: expect.any(String), added_by: { type: 'user', id: adaId } });
    expect([replayed.status, replayed.body.user_id]).toEqual([201, userId]);
    expect([changed.status, changed.body.role]).toEqual([200, 'operator']);
    expect(removed.status).toBe(204);
    const events = await ada('GET', '/events?type=member.added,member.role_changed,member.removed');
    expect(events.body.events.map((event: any) => [event.type, event.data.user_id, event.data.principal])).toEqual([
      ['member.added', userId, { type: 'user', id: adaId }],
      ['member.role_changed', userId, { type: 'user', id: adaId }],
      ['member.removed', userId, { type: 'user', id: adaId }],
    ]);
  });

  it('keeps the last admin: neither demoted nor removed (409 last_admin)', async () => {
    const demoted = await ada('PATCH', `/members/${adaId}`, { role: 'viewer' });
    const removed = await ada('DELETE', `/members/${adaId}`);

    expect([demoted.status, demoted.body.code]).toEqual([409, 'last_admin']);
    expect([removed.status, removed.body.code]).toEqual([409, 'last_admin']);
    expect((await ada('GET', '/me')).body.role).toBe('admin');
  });

  it('answers 409 for an email that is a member of this tenant, and another tenant exactly as for an unknown email (no oracle)', async () => {
    const here = await ada('POST', '/members', { email: 'vic@a.example', role: 'viewer' });
    const elsewhere = await bea('POST', '/members', { email: 'VIC@a.example', role: 'admin' });
    const unknown = await bea('POST', '/members', { email: `nobody-${suffix}@nowhere.example`, role: 'admin' });
    const shape = (answer: any) => [answer.status, Object.keys(answer.body).sort(), answer.body.status, answer.body.role];

    expect([here.status, here.body.code]).toEqual([409, 'member_exists']);
    expect(shape(elsewhere)).toEqual(shape(unknown));
    expect(shape(elsewhere)).toEqual([201, ['added_by', 'created_at', 'email', 'role', 'status', 'user_id'], 'invited', 'admin']);
    // Invited by B, Vic still signs in to A: an invitation alone puts nobody into a tenant.
    expect((await vic('GET', '/me')).body).toMatchObject({ tenant_id: tenantA, role: 'viewer' });
    expect((await bea('DELETE', `/members/${elsewhere.body.user_id}`)).status).toBe(204);
    expect((await bea('DELETE', `/members/${unknown.body.user_id}`)).status).toBe(204);
  });

  it('shows tenant B nothing of tenant A, and 404s A’s members', async () => {
    const list = await bea('GET', '/members');
    const patched = await bea('PATCH', `/members/${adaId}`, { role: 'viewer' });
    const deleted = await bea('DELETE', `/members/${adaId}`);

    expect(list.body.members.map((member: any) => member.email)).toEqual(['bea@b.example']);
    expect([patched.status, patched.body.code, deleted.status, deleted.body.code]).toEqual([404, 'member_not_found', 404, 'member_not_found']);
    expect((await bea('GET', '/events?type=member.added,member.role_changed,member.removed')).body.events.map((event: any) => event.data.email)).not.toContain('ada@a.example');
  });

  it('refuses a removed member’s token, and lets them in again once invited anew', async () => {
    const vicId = (await vic('GET', '/me')).body.principal.id;

    expect((await ada('DELETE', `/members/${vicId}`)).status).toBe(204);
    const refused = await vic('GET', '/me');
    // The same token again: invited anew, Vic is an invitee until they accept; then the member.
    const reinvited = await ada('POST', '/members', { email: 'vic@a.example', role: 'operator' });
    const pending = await vic('GET', '/me');
    const accepted = await vic('POST', `/me/invitations/${tenantA}/accept`);
    const again = await vic('GET', '/me');

    expect([refused.status, refused.body.code]).toEqual([401, 'unauthorized']);
    expect(reinvited.status).toBe(201);
    expect(pending.body).toMatchObject({ tenant_id: null, role: 'invitee', principal: { type: 'user', email: 'vic@a.example' } });
    expect([accepted.status, accepted.body.status]).toEqual([200, 'active']);
    expect(again.body).toMatchObject({ principal: { type: 'user', id: reinvited.body.user_id, email: 'vic@a.example' }, role: 'operator' });
  });
});
