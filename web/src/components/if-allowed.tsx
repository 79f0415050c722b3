import type { ReactNode } from 'react';
import type { Role } from '../lib/permissions';
import { usePermission } from '../lib/permissions';

/** Renders its children only when the caller's role covers `role`; the API would answer 403 otherwise. */
export function IfAllowed({ role, children }: { role: Role; children: ReactNode }) {
  return usePermission(role).allowed ? <>{children}</> : null;
}
