import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { useUpdateFinding, type Finding, type FindingChange } from '../api/use-findings';
import { DISMISS_REASONS } from '../lib/finding-filters';

/** Dismiss a finding with a reason (and a comment); it stays dismissed when later scans see it again. */
export function DismissDialog({ finding, onClose }: { finding: Finding; onClose: () => void }) {
  const update = useUpdateFinding(finding.id);
  const [reason, setReason] = useState<NonNullable<FindingChange['dismissed_reason']>>('false_positive');
  const [comment, setComment] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ status: 'dismissed', dismissed_reason: reason, ...(comment.trim() ? { comment: comment.trim() } : {}) }, { onSuccess: onClose });
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Dismiss: ${finding.title}`} description="A dismissed finding stays dismissed when later scans see it again.">
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="dismiss-reason">Reason</label>
          <select id="dismiss-reason" value={reason} onChange={(event) => setReason(event.target.value as typeof reason)}>
            {DISMISS_REASONS.map((item) => (
              <option key={item.value} value={item.value}>
                {item.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="dismiss-comment">Comment (optional)</label>
          <textarea id="dismiss-comment" maxLength={2000} value={comment} onChange={(event) => setComment(event.target.value)} />
        </div>
        {update.error && <ProblemMessage error={update.error} />}
        <div className="actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Back
          </button>
          <button type="submit" className="button primary" disabled={update.isPending}>
            {update.isPending ? 'Dismissing…' : 'Dismiss finding'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
