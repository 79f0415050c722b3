/**
 * Roles of a tenant's principals (people and API keys). They are not a line: `approver` and
 * `operator` are siblings, each allowed its own kind of action beside reading, and `admin` holds
 * both and more. So a route names its least role and `allows` says whether a role covers it.
 */
export const ROLES = ['admin', 'approver', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Every role covers itself; `admin` covers all; every role covers `viewer`. */
export function allows(role: Role, required: Role): boolean {
  return role === required || role === 'admin' || required === 'viewer';
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
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
}
