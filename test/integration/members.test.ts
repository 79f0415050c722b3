import { beforeAll, describe, expect, it } from 'vitest';
import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import { identityRepository } from '#shared/adapters/dynamodb/identity-repository';
import { memberRepository } from '#shared/adapters/dynamodb/member-repository';
import { ForbiddenError } from '#shared/domain/errors';
import { NO_TENANT, type Caller, type Role } from '#shared/domain/roles';
import { issueApiKey } from '#shared/services/api-keys';
import { acceptInvitation, declineInvitation, listMyInvitations } from '#shared/services/invitations';
import { addMember, changeMemberRole, listMembers, memberOfIdentity, removeMember } from '#shared/services/members';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const callerOf = (tenantId: string, role: Role = 'admin'): Caller => ({ tenantId, principal: { type: 'user', id: `usr_creator_${role}` }, role });
const email = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@example.com`;
/** The signed-in person of `address` before they belong to any tenant, as the authorizer resolves them. */
const inviteeOf = (address: string): Caller => ({ tenantId: NO_TENANT, principal: { type: 'user', id: `sub-${address}`, name: address.toLowerCase() }, role: 'invitee' });
/** Invites `address` to `tenant` and has the person accept: a member of it. */
async function joined(tenant: string, address: string, role: 'admin' | 'viewer' | 'operator') {
  const record = await addMember(callerOf(tenant), { email: address, role });
  await acceptInvitation(inviteeOf(address), tenant);
  return record;
}
const eventsOf = async (tenantId: string) => (await eventRepository.list(tenantId, { limit: 50 })).events;

describe('members, on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('members');
  });

  it('invites a person with member.added, lower-cases the email, refuses it twice here, and answers another tenant as for any email', async () => {
    const [tenant, other] = [uniqueTenant('people'), uniqueTenant('people')];
    const address = email('Ana');

    const record = await addMember(callerOf(tenant), { email: address.toUpperCase(), role: 'approver' });

    expect(record).toMatchObject({ user_id: expect.stringMatching(/^usr_[0-9a-z]{26}$/), email: address.toLowerCase(), role: 'approver', status: 'invited', added_by: { type: 'user', id: 'usr_creator_admin' } });
    await expect(addMember(callerOf(tenant), { email: address, role: 'viewer' })).rejects.toMatchObject({ code: 'member_exists' });
    const elsewhere = await addMember(callerOf(other), { email: address, role: 'viewer' });
    expect(Object.keys(elsewhere).sort()).toEqual(Object.keys(record).sort());
    expect((await eventsOf(tenant)).map((event) => [event.type, event.data])).toEqual([
      ['member.added', { user_id: record.user_id, email: address.toLowerCase(), role: 'approver', principal: { type: 'user', id: 'usr_creator_admin' } }],
    ]);
    expect((await eventsOf(other)).map((event) => event.type)).toEqual(['member.added']);
  });

  it('puts nobody into a tenant by an invitation alone: a sign-in finds no member until the person accepts', async () => {
    const [squatter, real] = [uniqueTenant('people'), uniqueTenant('people')];
    const address = email('eve');
    const identity = { issuer: 'https://issuer.example', sub: `sub-${address}` };
    await addMember(callerOf(squatter), { email: address, role: 'admin' });
    const offered = await addMember(callerOf(real), { email: address, role: 'operator' });

    expect(await memberOfIdentity(identity, async () => ({ email: address }))).toBeUndefined();
    expect((await listMyInvitations(inviteeOf(address))).map((invitation) => [invitation.tenant_id, invitation.role]).sort()).toEqual(
      [[squatter, 'admin'], [real, 'operator']].sort(),
    );
    await declineInvitation(inviteeOf(address), squatter);
    const member = await acceptInvitation(inviteeOf(address), real);

    expect(member).toMatchObject({ user_id: offered.user_id, tenant_id: real, status: 'active' });
    expect(await memberOfIdentity(identity, async () => ({ email: address }))).toMatchObject({ tenant_id: real, user_id: offered.user_id, status: 'active' });
    expect(await listMyInvitations(inviteeOf(address))).toEqual([]);
    expect((await listMembers(squatter, { limit: 10 })).members).toEqual([]);
    expect((await eventsOf(squatter)).map((event) => [event.type, event.data.principal])).toEqual([
      ['member.added', { type: 'user', id: 'usr_creator_admin' }],
      ['member.declined', { type: 'user', id: expect.stringMatching(/^usr_/) }],
    ]);
    expect((await eventsOf(real)).map((event) => [event.type, event.data.principal])).toEqual([
      ['member.added', { type: 'user', id: 'usr_creator_admin' }],
      ['member.joined', { type: 'user', id: offered.user_id }],
    ]);
    await expect(acceptInvitation(inviteeOf(address), squatter)).rejects.toMatchObject({ code: 'invitation_not_found' });
  });

  it('refuses to accept a second tenant (409 already_member), and withdraws an invitation when its member is removed', async () => {
    const [home, other] = [uniqueTenant('people'), uniqueTenant('people')];
    const address = email('kim');
    await joined(home, address, 'viewer');
    const invited = await addMember(callerOf(other), { email: address, role: 'viewer' });

    await expect(acceptInvitation(inviteeOf(address), other)).rejects.toMatchObject({ code: 'already_member' });
    await removeMember(callerOf(other), invited.user_id);

    expect(await listMyInvitations(inviteeOf(address))).toEqual([]);
    expect(await memberRepository.get(other, invited.user_id)).toBeUndefined();
  });

  it('pages one tenant’s members oldest first, and refuses another tenant’s cursor', async () => {
    const [tenant, other] = [uniqueTenant('people'), uniqueTenant('people')];
    for (const name of ['one', 'two', 'three']) await addMember(callerOf(tenant), { email: email(name), role: 'viewer' });

    const first = await listMembers(tenant, { limit: 2 });
    const second = await listMembers(tenant, { limit: 2, cursor: first.nextCursor! });

    expect([...first.members, ...second.members].map((member) => member.email.split('.')[0])).toEqual(['one', 'two', 'three']);
    await expect(listMembers(other, { limit: 2, cursor: first.nextCursor! })).rejects.toMatchObject({ code: 'invalid_cursor' });
  });

  it('changes a role with member.role_changed, keeps the last admin an admin, and 404s another tenant’s member', async () => {
    const tenant = uniqueTenant('people');
    const admin = await joined(tenant, email('admin'), 'admin');
    const viewer = await joined(tenant, email('viewer'), 'viewer');

    const promoted = await changeMemberRole(callerOf(tenant), viewer.user_id, 'operator');
    await changeMemberRole(callerOf(tenant), viewer.user_id, 'operator');

    expect(promoted.role).toBe('operator');
    await expect(changeMemberRole(callerOf(tenant), admin.user_id, 'viewer')).rejects.toMatchObject({ code: 'last_admin' });
    await expect(removeMember(callerOf(tenant), admin.user_id)).rejects.toMatchObject({ code: 'last_admin' });
    await expect(changeMemberRole(callerOf(uniqueTenant('people')), viewer.user_id, 'admin')).rejects.toMatchObject({ code: 'member_not_found' });
    expect((await eventsOf(tenant)).filter((event) => event.type === 'member.role_changed').map((event) => event.data)).toEqual([
      { user_id: viewer.user_id, email: viewer.email, role: 'operator', previous_role: 'viewer', principal: { type: 'user', id: 'usr_creator_admin' } },
    ]);
  });

  it('never lets two admins demote each other at the same time into a tenant without an admin', async () => {
    const tenant = uniqueTenant('people');
    const [first, second] = [await joined(tenant, email('first'), 'admin'), await joined(tenant, email('second'), 'admin')];

    const outcomes = await Promise.allSettled([changeMemberRole(callerOf(tenant), first.user_id, 'viewer'), removeMember(callerOf(tenant), second.user_id)]);

    const admins = (await listMembers(tenant, { limit: 10 })).members.filter((member) => member.role === 'admin');
    expect(admins).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason.code)).toEqual(['last_admin']);
  });

  it('removes a member with member.removed, their email’s claim and their sign-in, so the email may be invited again', async () => {
    const [tenant, other] = [uniqueTenant('people'), uniqueTenant('people')];
    await joined(tenant, email('admin'), 'admin');
    const ana = await joined(tenant, email('ana'), 'operator');
    const identity = { issuer: 'https://issuer.example', sub: `sub-${ana.user_id}` };
    expect(await memberOfIdentity(identity, async () => ({ email: ana.email, name: 'Ana' }))).toMatchObject({ user_id: ana.user_id, status: 'active', name: 'Ana' });

    await removeMember(callerOf(tenant), ana.user_id);

    expect(await memberRepository.get(tenant, ana.user_id)).toBeUndefined();
    expect(await identityRepository.find(identity.issuer, identity.sub)).toBeUndefined();
    expect(await memberOfIdentity(identity, async () => ({ email: ana.email }))).toBeUndefined();
    expect((await addMember(callerOf(other), { email: ana.email, role: 'viewer' })).tenant_id).toBe(other);
    expect((await eventsOf(tenant)).filter((event) => event.type === 'member.removed').map((event) => event.data)).toEqual([
      { user_id: ana.user_id, email: ana.email, role: 'operator', principal: { type: 'user', id: 'usr_creator_admin' } },
    ]);
  });

  it('binds a first sign-in once, and a new identity of the same person in place of the old one', async () => {
    const tenant = uniqueTenant('people');
    const ben = await joined(tenant, email('ben'), 'viewer');
    const first = { issuer: 'https://issuer.example', sub: `first-${ben.user_id}` };
    const learn = async () => ({ email: ben.email });

    const bound = await Promise.all([memberOfIdentity(first, learn), memberOfIdentity(first, learn)]);
    const rebound = await memberOfIdentity({ ...first, sub: `second-${ben.user_id}` }, learn);

    expect(bound.map((member) => member?.user_id)).toEqual([ben.user_id, ben.user_id]);
    expect(rebound?.user_id).toBe(ben.user_id);
    expect(await identityRepository.find(first.issuer, first.sub)).toBeUndefined();
    expect((await memberRepository.get(tenant, ben.user_id))?.identity).toEqual({ ...first, sub: `second-${ben.user_id}` });
  });

  it('never lets a person give a key a role above their own', async () => {
    const tenant = uniqueTenant('people');

    await expect(issueApiKey(callerOf(tenant, 'operator'), { name: 'up', role: 'admin' })).rejects.toBeInstanceOf(ForbiddenError);
    const { record } = await issueApiKey(callerOf(tenant, 'operator'), { name: 'same', role: 'operator' });

    expect(record.created_by).toEqual({ type: 'user', id: 'usr_creator_operator' });
  });
});
