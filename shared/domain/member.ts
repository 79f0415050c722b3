import type { MemberRole, Principal } from '#shared/domain/roles';

/**
 * A person's membership of a tenant. A person is known by email until their first sign-in, when
 * the issuer's subject (`sub`) is bound to the membership (the identity) and it becomes `active`.
 * One email is a member of at most one tenant, so a sign-in always resolves to one tenant.
 */
export type MemberStatus = 'invited' | 'active';

/** The issuer and subject a membership is bound to once its person signed in. */
export interface IdentityRef {
  issuer: string;
  sub: string;
}

export interface MemberRecord {
  user_id: string;
  tenant_id: string;
  /** Lower-cased. */
  email: string;
  name?: string;
  role: MemberRole;
  status: MemberStatus;
  created_at: string;
  /** Who invited the person; absent for members the local runtime made from its configuration. */
  added_by?: Principal;
  /** The first sign-in. */
  joined_at?: string;
  /** Never shown: which identity of the issuer signs in as this member. */
  identity?: IdentityRef;
}

/** Emails are compared without case: one person, one spelling. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A member as the API shows it. */
export function renderMember(record: MemberRecord) {
  return {
    user_id: record.user_id,
    email: record.email,
    ...(record.name ? { name: record.name } : {}),
    role: record.role,
    status: record.status,
    created_at: record.created_at,
    added_by: record.added_by ?? null,
    ...(record.joined_at ? { joined_at: record.joined_at } : {}),
  };
}
