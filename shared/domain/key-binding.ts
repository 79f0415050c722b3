import { allows, type MemberRole, type Principal, type Role } from '#shared/domain/roles';

/**
 * An API key created by a person is bound to that person: it never acts with more power than
 * they have now. At authentication its role is capped at the person's current role (a person
 * removed: the key is refused), so a demotion or removal holds at once; a durable job then makes
 * the stored keys follow (capped, or revoked), with `api_key.role_capped` and `api_key.revoked`.
 * A cap is kept when the person is promoted again: a new key is how power comes back.
 */

/** What happened to the person a job follows up. */
export type KeyBindingChange = 'demoted' | 'removed';

/**
 * The follow-up of one demotion or removal, written in the same transaction as the member change
 * and deleted once every key bound to the person is capped or revoked.
 */
export interface KeyBindingJob {
  job_id: string;
  tenant_id: string;
  /** The person whose keys follow. */
  user_id: string;
  change: KeyBindingChange;
  /** A demotion's new role: the keys' ceiling. */
  role?: MemberRole;
  /** Who demoted or removed the person: the events' `principal`. */
  actor: Principal;
  created_at: string;
}

/** The reason an event of the job gives. */
export const CAP_REASON: Record<KeyBindingChange, 'creator_demoted' | 'creator_removed'> = { demoted: 'creator_demoted', removed: 'creator_removed' };

/**
 * The most a key of role `role` may do under a person of role `ceiling`: the greatest role both
 * cover (roles are not a line: an `operator` key under an `approver` is a `viewer`); undefined when
 * there is none (an `agent` key under anyone but an admin: only admins make them).
 */
export function roleWithin(role: Role, ceiling: MemberRole): Role | undefined {
  // `agent` is outside the line (even an admin does not hold it), but only admins make agent keys.
  if (role === 'agent') return ceiling === 'admin' ? role : undefined;
  if (allows(ceiling, role)) return role;
  if (allows(role, ceiling)) return ceiling;
  return 'viewer';
}

/** Whether a change of a person's role from `previous` to `next` takes power away (a job follows). */
export function isDemotion(previous: MemberRole, next: MemberRole): boolean {
  return !allows(next, previous);
}

/** What a job does to one live key bound to its person. */
export type KeyBindingAction = { action: 'revoke' } | { action: 'cap'; role: Role } | { action: 'none' };

export function keyBindingAction(keyRole: Role, job: Pick<KeyBindingJob, 'change' | 'role'>): KeyBindingAction {
  if (job.change === 'removed' || !job.role) return { action: 'revoke' };
  const capped = roleWithin(keyRole, job.role);
  if (capped === undefined) return { action: 'revoke' };
  return capped === keyRole ? { action: 'none' } : { action: 'cap', role: capped };
}
