import { invitationRepository } from '#shared/adapters/dynamodb/invitation-repository';
import { memberRepository } from '#shared/adapters/dynamodb/member-repository';
import { adminEvent } from '#shared/domain/admin-events';
import { systemClock } from '#shared/domain/clock';
import { ForbiddenError, NotFoundError } from '#shared/domain/errors';
import { renderInvitation, type InvitationRecord } from '#shared/domain/invitation';
import { normaliseEmail, type MemberRecord } from '#shared/domain/member';
import type { Caller } from '#shared/domain/roles';

/**
 * The email a person's invitations are under: an invitee's is the verified email the authorizer
 * resolved (their principal's name); a member's is their membership's. API keys have none.
 */
async function emailOf(caller: Caller): Promise<string> {
  if (caller.principal.type !== 'user') throw new ForbiddenError('Invitations are answered by the person invited, signed in; not with an API key.');
  if (caller.role === 'invitee') return normaliseEmail(caller.principal.name ?? '');
  const member = await memberRepository.get(caller.tenantId, caller.principal.id);
  if (!member) throw new ForbiddenError('Only a signed-in person has invitations.');
  return member.email;
}

/** The invitation and its invited member, or 404 `invitation_not_found` (also for one withdrawn meanwhile). */
async function pending(email: string, tenantId: string): Promise<{ invitation: InvitationRecord; member: MemberRecord }> {
  const invitation = await invitationRepository.find(email, tenantId);
  const member = invitation && (await memberRepository.get(invitation.tenant_id, invitation.user_id));
  if (!invitation || !member || member.status !== 'invited') throw new NotFoundError('invitation', tenantId);
  return { invitation, member };
}

const eventData = (member: MemberRecord) => ({ user_id: member.user_id, email: member.email, role: member.role });

/** GET /me/invitations: the caller's pending invitations, one per inviting tenant (an API key has none). */
export async function listMyInvitations(caller: Caller) {
  if (caller.principal.type !== 'user') return [];
  const email = await emailOf(caller);
  const invitations = await invitationRepository.listFor(email);
  const rendered = await Promise.all(
    invitations.map(async (invitation) => {
      const member = await memberRepository.get(invitation.tenant_id, invitation.user_id);
      return member?.status === 'invited' ? renderInvitation(invitation, member) : undefined;
    }),
  );
  return rendered.filter((invitation) => invitation !== undefined);
}

/**
 * POST /me/invitations/{tenant_id}/accept: the person joins the tenant with the role offered
 * (`member.joined` in that tenant, the person as principal). 409 `already_member` when they are a
 * member of a tenant already. Their next request signs them in as the member.
 */
export async function acceptInvitation(caller: Caller, tenantId: string) {
  const { invitation, member } = await pending(await emailOf(caller), tenantId);
  const now = systemClock.now().toISOString();
  await invitationRepository.accept(invitation, now, adminEvent('member.joined', tenantId, { type: 'user', id: member.user_id }, eventData(member), systemClock));
  return { ...member, status: 'active' as const, joined_at: now };
}

/** POST /me/invitations/{tenant_id}/decline: the invitation and the invited member go (`member.declined` in that tenant). */
export async function declineInvitation(caller: Caller, tenantId: string): Promise<void> {
  const { invitation, member } = await pending(await emailOf(caller), tenantId);
  await invitationRepository.withdraw(invitation, adminEvent('member.declined', tenantId, { type: 'user', id: member.user_id }, eventData(member), systemClock));
}

/** Whether an email has any pending invitation (sign-in of a person who is no tenant's member). */
export async function hasInvitations(email: string): Promise<boolean> {
  return (await invitationRepository.listFor(normaliseEmail(email))).length > 0;
}
