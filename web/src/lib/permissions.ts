import { allows, type Role } from '#shared/domain/roles';
import { useMe } from '../api/me';

export type { Role };

export interface Permission {
  allowed: boolean;
  /** Why not, in words, for a disabled control's description; empty when allowed. */
  reason: string;
}

/** Whether the signed-in caller's role covers `required` (the API's own rule, shared/domain/roles.ts). */
export function permissionOf(role: Role | undefined, required: Role): Permission {
  if (!role) return { allowed: false, reason: 'Checking your role…' };
  return allows(role, required) ? { allowed: true, reason: '' } : { allowed: false, reason: `Needs the ${required} role; you are ${role === 'admin' || role === 'approver' || role === 'operator' ? 'an' : 'a'} ${role}.` };
}

/** The caller's permission for an action whose route needs `required`. */
export function usePermission(required: Role): Permission {
  return permissionOf(useMe().data?.role, required);
}
