import { useId, useState } from 'react';
import { usePermission } from '../../../lib/permissions';
import { hasEditableBody } from '../lib/action-fields';
import type { Approval } from '../api/use-approvals';
import { ResolveDialog, type ResolveMode } from './resolve-dialog';

/** `Approve`, `Deny` and (for an action with a body) `Edit`; disabled with the reason for roles that cannot resolve. */
export function ApprovalActions({ approval }: { approval: Approval }) {
  const permission = usePermission('approver');
  const [mode, setMode] = useState<ResolveMode>();
  const reasonId = useId();
  const disabled = !permission.allowed;
  const described = disabled ? reasonId : undefined;
  const label = (verb: string) => `${verb} “${approval.title}”`;
  return (
    <>
      <div className="actions">
        <button type="button" className="button primary" disabled={disabled} aria-describedby={described} aria-label={label('Approve')} onClick={() => setMode('approve')}>
          Approve
        </button>
        {hasEditableBody(approval.action) && (
          <button type="button" className="button" disabled={disabled} aria-describedby={described} aria-label={label('Edit')} onClick={() => setMode('edit')}>
            Edit
          </button>
        )}
        <button type="button" className="button danger" disabled={disabled} aria-describedby={described} aria-label={label('Deny')} onClick={() => setMode('deny')}>
          Deny
        </button>
      </div>
      {disabled && (
        <p className="field-hint" id={reasonId}>
          {permission.reason}
        </p>
      )}
      {mode && <ResolveDialog approval={approval} mode={mode} onClose={() => setMode(undefined)} />}
    </>
  );
}
