import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { fieldErrors } from '../../../api/problem-error';
import { editableFields, fieldLabel, isChanged, modifiedAction } from '../lib/action-fields';
import { useResolveApproval, type Approval } from '../api/use-approvals';

export type ResolveMode = 'approve' | 'deny' | 'edit';

const WORDS: Record<ResolveMode, { title: string; submit: string; comment: string }> = {
  approve: { title: 'Approve', submit: 'Approve', comment: 'Comment (optional)' },
  deny: { title: 'Deny', submit: 'Deny', comment: 'Reason (optional)' },
  edit: { title: 'Edit and approve', submit: 'Approve edited action', comment: 'Comment (optional)' },
};

interface ResolveDialogProps {
  approval: Approval;
  mode: ResolveMode;
  onClose: () => void;
}

/** Approve, deny, or edit the action's text and approve that, each with a comment. */
export function ResolveDialog({ approval, mode, onClose }: ResolveDialogProps) {
  const resolve = useResolveApproval(approval.approval_id);
  const fields = mode === 'edit' ? editableFields(approval.action) : [];
  const [edits, setEdits] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((key) => [key, String(approval.action[key])])));
  const [comment, setComment] = useState('');
  const errors = fieldErrors(resolve.error, 'body.modified_action');
  const words = WORDS[mode];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changed = mode === 'edit' && isChanged(approval.action, edits);
    resolve.mutate(
      { decision: mode === 'deny' ? 'denied' : 'approved', ...(comment.trim() ? { comment: comment.trim() } : {}), ...(changed ? { modified_action: modifiedAction(approval.action, edits) } : {}) },
      { onSuccess: onClose },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`${words.title}: ${approval.title}`} description={mode === 'edit' ? 'Change the action, then approve it: the edited action is what runs.' : undefined}>
      <form onSubmit={submit} noValidate>
        {fields.map((key) => {
          const id = `edit-${approval.approval_id}-${key}`;
          const multiline = key === 'body' || String(edits[key]).includes('\n');
          return (
            <div className="field" key={key}>
              <label htmlFor={id}>{fieldLabel(key)}</label>
              {multiline ? (
                <textarea id={id} rows={10} value={edits[key]} aria-invalid={Boolean(errors[key])} aria-describedby={errors[key] ? `${id}-error` : undefined} onChange={(event) => setEdits({ ...edits, [key]: event.target.value })} />
              ) : (
                <input id={id} value={edits[key]} aria-invalid={Boolean(errors[key])} aria-describedby={errors[key] ? `${id}-error` : undefined} onChange={(event) => setEdits({ ...edits, [key]: event.target.value })} />
              )}
              {errors[key] && (
                <span className="field-error" id={`${id}-error`}>
                  {errors[key]}
                </span>
              )}
            </div>
          );
        })}
        <div className="field">
          <label htmlFor={`comment-${approval.approval_id}`}>{words.comment}</label>
          <textarea id={`comment-${approval.approval_id}`} maxLength={2000} value={comment} onChange={(event) => setComment(event.target.value)} />
        </div>
        {resolve.error && <ProblemMessage error={resolve.error} />}
        <div className="actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Back
          </button>
          <button type="submit" className={mode === 'deny' ? 'button danger' : 'button primary'} disabled={resolve.isPending}>
            {resolve.isPending ? 'Working…' : words.submit}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
