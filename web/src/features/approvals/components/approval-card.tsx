import { Link } from 'react-router';
import { CopyableId } from '../../../components/copyable-id';
import { Principal } from '../../../components/principal';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Approval } from '../api/use-approvals';
import { ActionView } from './action-view';
import { ApprovalActions } from './approval-actions';

/** One approval: what it asks, what runs, then the buttons (pending) or who decided (resolved). */
export function ApprovalCard({ approval, headingLevel = 2 }: { approval: Approval; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const expired = approval.resolution === 'expired';
  return (
    <article className="card approval" aria-labelledby={`approval-${approval.approval_id}`}>
      <Heading id={`approval-${approval.approval_id}`}>
        <Link to={`/approvals/${approval.approval_id}`}>{approval.title}</Link> <StatusBadge status={expired ? 'expired' : approval.status} />
      </Heading>
      {approval.description && <p>{approval.description}</p>}
      <dl className="facts">
        <dt>Agent</dt>
        <dd>{approval.agent}</dd>
        <dt>Task</dt>
        <dd>
          <Link to={`/tasks/${approval.task_id}`}>Open task</Link> · <Link to={`/events?task_id=${encodeURIComponent(approval.task_id)}`}>Its events</Link> <CopyableId value={approval.task_id} label="task id" />
        </dd>
        <dt>Asked</dt>
        <dd>
          <RelativeTime value={approval.created_at} />
        </dd>
        {approval.status === 'pending' ? (
          <>
            <dt>Expires</dt>
            <dd>
              <RelativeTime value={approval.expires_at} />
            </dd>
          </>
        ) : (
          <>
            <dt>{expired ? 'Expired' : approval.status === 'approved' ? 'Approved by' : 'Denied by'}</dt>
            <dd>
              {expired ? 'nobody decided in time' : <Principal principal={approval.resolved_by} />} · <RelativeTime value={approval.resolved_at} />
            </dd>
            {approval.comment && (
              <>
                <dt>Comment</dt>
                <dd>{approval.comment}</dd>
              </>
            )}
            {approval.execution && (
              <>
                <dt>Executed</dt>
                <dd>
                  {approval.execution.status} · <RelativeTime value={approval.execution.executed_at} />
                </dd>
              </>
            )}
          </>
        )}
      </dl>
      <ActionView action={approval.action} label={approval.original_action ? 'Action (as edited)' : 'Action'} />
      {approval.original_action && (
        <details>
          <summary>The agent's original action</summary>
          <ActionView action={approval.original_action} label="Original action" />
        </details>
      )}
      {approval.status === 'pending' && <ApprovalActions approval={approval} />}
    </article>
  );
}
