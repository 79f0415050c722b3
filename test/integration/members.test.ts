import { beforeAll, describe, expect, it } from 'vitest';
import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import { identityRepository } from '#shared/adapters/dynamodb/identity-repository';
import { memberRepository } from '#shared/adapters/dynamodb/member-repository';
import { ForbiddenError } from '#shared/domain/errors';
import type { Caller, Role } from '#shared/domain/roles';
import { issueApiKey } from '#shared/services/api-keys';
import { addMember, changeMemberRole, listMembers, memberOfIdentity, removeMember } from '#shared/services/members';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const callerOf = (tenantId: string, role: Role = 'admin'): Caller => ({ tenantId, principal: { type: 'user', id: `usr_creator_${role}` }, role });
const email = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@example.com`;
const eventsOf = async (tenantId: string) => (await eventRepository.list(tenantId, { limit: 50 })).events;

describe('members, on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('members');
  });

  it('invites a person with member.added, lower-cases the email, and refuses an email that is a member anywhere', async () => {
    const [tenant, other] = [uniqueTenant('people'), uniqueTenant('people')];
    const address = email('Ana');

    const record = await addMember(callerOf(tenant), { email: address.toUpperCase(), role: 'approver' });

    expect(record).toMatchObject({ user_id: expect.stringMatching(/^usr_[0-9a-z]{26}$/), email: address.toLowerCase(), role: 'approver', status: 'invited', added_by: { type: 'user', id: 'usr_creator_admin' } });
    await expect(addMember(callerOf(tenant), { email: address, role: 'viewer' })).rejects.toMatchObject({ code: 'member_exists' });
    await expect(addMember(callerOf(other), { email: address, role: 'viewer' })).rejects.toMatchObject({ code: 'member_exists' });
    expect((await listMembers(other, { limit: 10 })).members).toEqual([]);
    expect((await eventsOf(tenant)).map((event) => [event.type, event.data])).toEqual([
      ['member.added', { user_id: record.user_id, email: address.toLowerCase(), role: 'approver', principal: { type: 'user', id: 'usr_creator_admin' } }],
    ]);
    expect(await eventsOf(other)).toEqual([]);
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
    const admin = await addMember(callerOf(tenant), { email: email('admin'), role: 'admin' });
    const viewer = await addMember(callerOf(tenant), { email: email('viewer'), role: 'viewer' });

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
    const [first, second] = [await addMember(callerOf(tenant), { email: email('first'), role: 'admin' }), await addMember(callerOf(tenant), { email: email('second'), role: 'admin' })];

    const outcomes = await Promise.allSettled([changeMemberRole(callerOf(tenant), first.user_id, 'viewer'), removeMember(callerOf(tenant), second.user_id)]);

    const admins = (await listMembers(tenant, { limit: 10 })).members.filter((member) => member.role === 'admin');
    expect(admins).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason.code)).toEqual(['last_admin']);
  });

  it('removes a member with member.removed, their email’s claim and their sign-in, so the email may be invited again', async () => {
    const [tenant, other] = [uniqueTenant('people'), uniqueTenant('people')];
    await addMember(callerOf(tenant), { email: email('admin'), role: 'admin' });
    const ana = await addMember(callerOf(tenant), { email: email('ana'), role: 'operator' });
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
    const ben = await addMember(callerOf(tenant), { email: email('ben'), role: 'viewer' });
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
