import { identityRepository } from '#shared/adapters/dynamodb/identity-repository';
import { invitationRepository } from '#shared/adapters/dynamodb/invitation-repository';
import { MEMBER_CHANGED, memberRepository } from '#shared/adapters/dynamodb/member-repository';
import { adminEvent } from '#shared/domain/admin-events';
import { systemClock } from '#shared/domain/clock';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';
import { isDemotion, type KeyBindingChange, type KeyBindingJob } from '#shared/domain/key-binding';
import { normaliseEmail, type IdentityRef, type MemberRecord } from '#shared/domain/member';
import type { Caller, MemberRole, Principal } from '#shared/domain/roles';

/** Attempts of a change whose conditions a concurrent change broke, each on a fresh read. */
const ATTEMPTS = 3;

async function retried<T>(change: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof ConflictError && error.code === MEMBER_CHANGED) || attempt === ATTEMPTS) throw error;
    }
  }
}

/** The data of `member.*` events: who, never how they sign in. */
const memberEventData = (record: MemberRecord) => ({ user_id: record.user_id, email: record.email });

async function existingMember(tenantId: string, userId: string): Promise<MemberRecord> {
  const record = await memberRepository.get(tenantId, userId);
  if (!record) throw new NotFoundError('member', userId);
  return record;
}

/**
 * Another admin of the tenant, whose staying admin the change of `record` (an admin demoted or
 * removed) is conditioned on; 409 `last_admin` when there is none. Non-admins need none.
 */
async function otherAdminFor(record: MemberRecord): Promise<MemberRecord | undefined> {
  if (record.role !== 'admin') return undefined;
  const other = (await memberRepository.listAll(record.tenant_id)).find((member) => member.role === 'admin' && member.user_id !== record.user_id);
  if (!other) throw new ConflictError('last_admin', 'The tenant would have no admin left: make another member admin first.');
  return other;
}

/**
 * POST /members: invites a person by email with a role, with `member.added` in the same
 * transaction. The answer is the same whether or not the email belongs to another tenant (no
 * oracle), and nothing is claimed: the person joins only by accepting (services/invitations.ts).
 * 409 `member_exists` only for this tenant's own members and invitations.
 */
export async function addMember(caller: Caller, request: { email: string; role: MemberRole }): Promise<MemberRecord> {
  const record: MemberRecord = {
    user_id: newId('usr'),
    tenant_id: caller.tenantId,
    email: normaliseEmail(request.email),
    role: request.role,
    status: 'invited',
    created_at: systemClock.now().toISOString(),
    added_by: { type: caller.principal.type, id: caller.principal.id },
  };
  const claim = await memberRepository.findEmailClaim(record.email);
  if (claim?.tenant_id === caller.tenantId) throw new ConflictError('member_exists', `'${record.email}' is already a member of this tenant.`);
  await invitationRepository.invite(record, adminEvent('member.added', caller.tenantId, caller.principal, { ...memberEventData(record), role: record.role }, systemClock));
  return record;
}

/** GET /members: the tenant's members, oldest first. */
export function listMembers(tenantId: string, query: { limit: number; cursor?: string }) {
  return memberRepository.listPage(tenantId, query);
}

/** The job that makes the keys bound to `record`'s person follow a demotion or removal by `caller`. */
function keyBindingJob(caller: Caller, record: MemberRecord, change: KeyBindingChange, role?: MemberRole): KeyBindingJob {
  const now = systemClock.now();
  return { job_id: newId('kbj', now.getTime()), tenant_id: record.tenant_id, user_id: record.user_id, change, ...(role ? { role } : {}), actor: { type: caller.principal.type, id: caller.principal.id }, created_at: now.toISOString() };
}

/**
 * PATCH /members/{user_id}: a new role, with `member.role_changed`; the last admin keeps theirs
 * (409). A demotion writes, in the same transaction, the job that caps the person's API keys.
 */
export function changeMemberRole(caller: Caller, userId: string, role: MemberRole): Promise<MemberRecord> {
  return retried(async () => {
    const record = await existingMember(caller.tenantId, userId);
    if (record.role === role) return record;
    const otherAdmin = role === 'admin' ? undefined : await otherAdminFor(record);
    const event = adminEvent('member.role_changed', caller.tenantId, caller.principal, { ...memberEventData(record), role, previous_role: record.role }, systemClock);
    const keyJob = isDemotion(record.role, role) ? keyBindingJob(caller, record, 'demoted', role) : undefined;
    return memberRepository.changeRole(record, role, otherAdmin, event, keyJob);
  });
}

/**
 * DELETE /members/{user_id}: removes the member, its email's claim and its identity binding (its
 * tokens stop working once the authorizer's cached answer expires), with `member.removed` and the
 * job that revokes the person's API keys in the same transaction. The last admin stays (409).
 */
export function removeMember(caller: Caller, userId: string): Promise<void> {
  return retried(async () => {
    const record = await existingMember(caller.tenantId, userId);
    const event = adminEvent('member.removed', caller.tenantId, caller.principal, { ...memberEventData(record), role: record.role }, systemClock);
    // An invitation not yet answered holds no claim: withdrawing it removes the invited member.
    const invitation = record.status === 'invited' ? await invitationRepository.find(record.email, record.tenant_id) : undefined;
    if (invitation?.user_id === record.user_id) return invitationRepository.withdraw(invitation, event);
    const otherAdmin = await otherAdminFor(record);
    await memberRepository.remove(record, otherAdmin, event, keyBindingJob(caller, record, 'removed'));
  });
}

/**
 * The member a signed-in identity acts as. A known identity is its binding's member; an unknown
 * one is bound, at this first sign-in, to the membership of the verified email that
 * `learnProfile` asks the issuer for (and the member becomes `active`). Undefined: not a member.
 */
export async function memberOfIdentity(identity: IdentityRef, learnProfile: () => Promise<{ email: string; name?: string }>): Promise<MemberRecord | undefined> {
  const binding = await identityRepository.find(identity.issuer, identity.sub);
  if (binding) return memberRepository.get(binding.tenant_id, binding.user_id);
  const profile = await learnProfile();
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const claim = await memberRepository.findEmailClaim(profile.email);
    const member = claim && (await memberRepository.get(claim.tenant_id, claim.user_id));
    if (!member) return undefined;
    if (await identityRepository.bind(member, identity, profile, systemClock.now().toISOString())) return { ...member, status: 'active', identity, ...(profile.name ? { name: profile.name } : {}) };
    // A concurrent first request of the same person may have bound it meanwhile.
    const bound = await identityRepository.find(identity.issuer, identity.sub);
    if (bound) return memberRepository.get(bound.tenant_id, bound.user_id);
  }
  throw new ConflictError('member_changed_concurrently', 'The membership changed during sign-in. Retry.');
}

/** `principal` of GET /me for a person: their user id, email and name. */
export async function describeUser(tenantId: string, principal: Principal): Promise<{ type: 'user'; id: string; email?: string; name?: string }> {
  const record = await memberRepository.get(tenantId, principal.id);
  return { type: 'user', id: principal.id, ...(record ? { email: record.email } : {}), ...(record?.name ? { name: record.name } : {}) };
}

/**
 * Makes a person of the local runtime's configuration (GATEHOUSE_USERS, or the dev user) a member
 * of their tenant with their role, so they can sign in at once: created when missing (moved when
 * the configuration moved them to another tenant), their role set when it changed. The runtime's
 * own bookkeeping, as its keys are: no events.
 */
export async function ensureLocalMember(user: { email: string; tenantId: string; role: MemberRole }): Promise<void> {
  const email = normaliseEmail(user.email);
  const claim = await memberRepository.findEmailClaim(email);
  const current = claim && (await memberRepository.get(claim.tenant_id, claim.user_id));
  if (current && current.tenant_id === user.tenantId) {
    if (current.role !== user.role) await memberRepository.setRole(current, user.role);
    return;
  }
  if (current) await memberRepository.remove(current, undefined, undefined);
  await memberRepository.create({ user_id: newId('usr'), tenant_id: user.tenantId, email, role: user.role, status: 'invited', created_at: systemClock.now().toISOString() });
}
