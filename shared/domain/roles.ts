/**
 * Roles of a tenant's principals (people and API keys). They are not a line: `approver` and
 * `operator` are siblings, each allowed its own kind of action beside reading, and `admin` holds
 * both and more. So a route names its least role and `allows` says whether a role covers it.
 */
export const MEMBER_ROLES = ['admin', 'approver', 'operator', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
/**
 * Every role: a person's, or `agent`, which only API keys bound to one custom agent have. An
 * agent key stands outside the line: it can call its agent's worker protocol and nothing else,
 * and nobody else calls the protocol (docs/workers.md).
 */
/**
 * `invitee` is a signed-in person who belongs to no tenant yet but has pending invitations: they
 * can see who they are (GET /me) and their invitations, and accept or decline them; nothing else.
 */
export const ROLES = [...MEMBER_ROLES, 'agent', 'invitee'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Every role covers itself; `admin` covers all but `agent`; every person's role covers `viewer`;
 * every role but `agent` covers `invitee` (the routes of a person without a tenant), and
 * `invitee` covers nothing else.
 */
export function allows(role: Role, required: Role): boolean {
  if (role === 'agent' || required === 'agent') return role === required;
  if (role === 'invitee' || required === 'invitee') return role === required || required === 'invitee';
  return role === required || role === 'admin' || required === 'viewer';
}

/**
 * The tenant an invitee's requests carry: none of theirs. No tenant's data is under it (tenant ids
 * cannot contain `~`), and the only routes an invitee may call read their invitations by email.
 */
export const NO_TENANT = '~invitee';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);
}

/** Keys without a stored role (GATEHOUSE_API_KEYS, the dev key, CLI keys without `--role`) are admins. */
export const DEFAULT_ROLE: Role = 'admin';

/** Who made a request: an API key now; a signed-in person (`user`) once people sign in. */
export interface Principal {
  type: 'api_key' | 'user';
  id: string;
  /** For people reading a record: a person's name or email, a key's name. */
  name?: string;
}

/** A request's authenticated caller: its tenant, principal and role. */
export interface Caller {
  tenantId: string;
  principal: Principal;
  role: Role;
  /** The custom agent an `agent` key is bound to (its slug); absent for every other caller. */
  agent?: string;
}
