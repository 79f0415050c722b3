import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signIn } from '../support/sign-in';

/**
 * Issue 25 point 8: inviting an email of another tenant answered 409 naming it (an oracle), and a
 * tenant that invited an address first signed its person into that tenant (squatting). Now an
 * invitation is answered by its person: an invitee of no tenant sees theirs, accepts or declines.
 */
const suffix = randomBytes(3).toString('hex');
const [tenantA, tenantB, tenantC] = [`inv-a-${suffix}`, `inv-b-${suffix}`, `inv-c-${suffix}`];
const users = [
  { email: 'ada@a.example', password: 'ada-secret', tenantId: tenantA, role: 'admin' as const },
  { email: 'bea@b.example', password: 'bea-secret', tenantId: tenantB, role: 'admin' as const },
  { email: 'cat@c.example', password: 'cat-secret', tenantId: tenantC, role: 'admin' as const },
  // Ivy starts in C, and C's admin removes her: a person of no tenant, as a new colleague would be.
  { email: 'ivy@c.example', password: 'ivy-secret', tenantId: tenantC, role: 'viewer' as const },
];
let runtime: TestRuntime;
let ada: ReturnType<typeof apiClient>;
let bea: ReturnType<typeof apiClient>;
let ivy: ReturnType<typeof apiClient>;

describe('invitations over HTTP', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('invitations', { workers: false, users });
    const [adaToken, beaToken, catToken, ivyToken] = await Promise.all(users.map((user) => signIn(runtime.baseUrl, user.email, user.password)));
    [ada, bea, ivy] = [adaToken, beaToken, ivyToken].map((token) => apiClient(runtime.baseUrl, token));
    const cat = apiClient(runtime.baseUrl, catToken);
    const ivyId = (await ivy('GET', '/me')).body.principal.id;
    expect((await cat('DELETE', `/members/${ivyId}`)).status).toBe(204);
    expect((await ivy('GET', '/me')).status).toBe(401);
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers an invitation of another tenant’s member exactly as one of an unknown email', async () => {
    const member = await bea('POST', '/members', { email: 'ada@a.example', role: 'viewer' });
    const stranger = await bea('POST', '/members', { email: `nobody-${suffix}@nowhere.example`, role: 'viewer' });
    const strip = (body: any) => ({ ...body, user_id: 'usr', email: 'e', created_at: 't' });

    expect([member.status, strip(member.body)]).toEqual([stranger.status, strip(stranger.body)]);
    expect(member.status).toBe(201);
    // Ada stays in A; B's invitation puts her nowhere, and she cannot accept it while in A.
    expect((await ada('GET', '/me')).body).toMatchObject({ tenant_id: tenantA, role: 'admin' });
    expect((await ada('GET', '/me/invitations')).body.invitations).toEqual([{ tenant_id: tenantB, role: 'viewer', invited_at: expect.any(String) }]);
    const refused = await ada('POST', `/me/invitations/${tenantB}/accept`);
    expect([refused.status, refused.body.code]).toEqual([409, 'already_member']);
  });

  it('does not sign a squatted address into the squatter’s tenant: its person is an invitee who chooses', async () => {
    const squatted = await ada('POST', '/members', { email: 'ivy@c.example', role: 'admin' });
    const offered = await bea('POST', '/members', { email: 'ivy@c.example', role: 'operator' });

    const me = await ivy('GET', '/me');
    const tenantData = await ivy('GET', '/tasks');
    const invitations = await ivy('GET', '/me/invitations');

    expect([squatted.status, offered.status]).toEqual([201, 201]);
    expect(me.body).toMatchObject({ tenant_id: null, role: 'invitee', principal: { type: 'user', email: 'ivy@c.example' } });
    expect([tenantData.status, tenantData.body.code]).toEqual([403, 'forbidden']);
    expect(invitations.body.invitations.map((invitation: any) => [invitation.tenant_id, invitation.role]).sort()).toEqual([[tenantA, 'admin'], [tenantB, 'operator']].sort());
    expect((await ada('GET', '/members')).body.members.find((member: any) => member.email === 'ivy@c.example').status).toBe('invited');
  });

  it('declines one invitation and accepts the other: the person joins that tenant only, each with its event', async () => {
    const declined = await ivy('POST', `/me/invitations/${tenantA}/decline`);
    const accepted = await ivy('POST', `/me/invitations/${tenantB}/accept`);
    const me = await ivy('GET', '/me');
    const again = await ivy('POST', `/me/invitations/${tenantA}/accept`);

    expect(declined.status).toBe(204);
    expect([accepted.status, accepted.body.email, accepted.body.role, accepted.body.status]).toEqual([200, 'ivy@c.example', 'operator', 'active']);
    expect(me.body).toMatchObject({ tenant_id: tenantB, role: 'operator', principal: { type: 'user', id: accepted.body.user_id } });
    expect([again.status, again.body.code]).toEqual([404, 'invitation_not_found']);
    expect((await ada('GET', '/members')).body.members.map((member: any) => member.email)).not.toContain('ivy@c.example');
    const eventsA = await ada('GET', '/events?type=member.added,member.declined,member.joined');
    const eventsB = await bea('GET', '/events?type=member.added,member.declined,member.joined');
    expect(eventsA.body.events.filter((event: any) => event.data.email === 'ivy@c.example').map((event: any) => event.type)).toEqual(['member.added', 'member.declined']);
    expect(eventsB.body.events.filter((event: any) => event.data.email === 'ivy@c.example').map((event: any) => [event.type, event.data.principal])).toEqual([
      ['member.added', { type: 'user', id: expect.any(String) }],
      ['member.joined', { type: 'user', id: accepted.body.user_id }],
    ]);
  });

  it('gives an API key no invitations, and refuses it an answer to one', async () => {
    const key = apiClient(runtime.baseUrl, runtime.keys.a);
    await bea('POST', '/members', { email: `key-${suffix}@a.example`, role: 'viewer' });

    const list = await key('GET', '/me/invitations');
    const accept = await key('POST', `/me/invitations/${tenantB}/accept`);

    expect([list.status, list.body.invitations]).toEqual([200, []]);
    expect([accept.status, accept.body.code]).toEqual([403, 'forbidden']);
  });
});
