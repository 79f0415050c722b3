import type { ReactNode } from 'react';
import { usePermission } from '../../../lib/permissions';

/** A section only admins may read (the API answers 403 otherwise): its content, or why not, in words. */
export function AdminOnly({ what, children }: { what: string; children: ReactNode }) {
  const permission = usePermission('admin');
  if (permission.allowed) return <>{children}</>;
  return (
    <p className="empty">
      Only admins see {what}. {permission.reason}
    </p>
  );
}
