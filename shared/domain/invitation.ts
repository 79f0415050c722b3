import type { MemberRecord } from '#shared/domain/member';

/**
 * An invitation: a tenant's admin invited an email, and the person behind it has not answered yet.
 * The tenant keeps the invited member (status `invited`, its role); the invitation, keyed by the
 * email, lets the person find it. The person belongs to the tenant only once they accept
 * (`member.joined`); declining (`member.declined`) or the admin removing the member withdraws it.
 */
export interface InvitationRecord {
  email: string;
  tenant_id: string;
  user_id: string;
  invited_at: string;
}

/** An invitation as its invitee sees it: the tenant, the role offered, when. */
export function renderInvitation(invitation: InvitationRecord, member: MemberRecord) {
  return { tenant_id: invitation.tenant_id, role: member.role, invited_at: invitation.invited_at };
}
