import { Link, useSearchParams } from 'react-router';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { useApprovalList, type ApprovalStatus } from './api/use-approvals';
import { ApprovalList } from './components/approval-list';
import { ResolvedSection } from './components/resolved-section';

const FILTERS = [
  { value: 'all', label: 'All (pending first)' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'denied', label: 'Denied (and expired)' },
] as const;

const EMPTY: Record<ApprovalStatus, string> = {
  pending: 'Nothing waits for a decision. When an agent asks to act (send an email, say), its request appears here.',
  approved: 'Nothing approved yet.',
  denied: 'Nothing denied or expired yet.',
};

function StatusSection({ status, taskId }: { status: ApprovalStatus; taskId?: string }) {
  const list = useApprovalList(status, taskId);
  const title = FILTERS.find((filter) => filter.value === status)?.label ?? status;
  return (
    <section aria-labelledby={`${status}-heading`}>
      <h2 id={`${status}-heading`}>{title}</h2>
      <ApprovalList items={list.items} isPending={list.isPending} error={list.error} retry={() => void list.refetch()} loading={`Loading ${status} approvals…`} empty={<p>{EMPTY[status]}</p>} />
      <LoadMore query={list} />
    </section>
  );
}

/** Approvals: the inbox. Pending first, then what was resolved, newest first; filter by status. */
export function ApprovalsPage() {
  const [params, setParams] = useSearchParams();
  const status = FILTERS.some((filter) => filter.value === params.get('status')) ? (params.get('status') as (typeof FILTERS)[number]['value']) : 'all';
  const taskId = params.get('task_id') ?? undefined;
  const change = (next: string) => {
    const updated = new URLSearchParams(params);
    if (next === 'all') updated.delete('status');
    else updated.set('status', next);
    setParams(updated, { replace: true });
  };
  return (
    <Page title="Approvals" intro="Approve, deny or edit what agents ask to do.">
      <div className="filters">
        <div className="field">
          <label htmlFor="approval-status">Status</label>
          <select id="approval-status" value={status} onChange={(event) => change(event.target.value)}>
            {FILTERS.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {taskId && (
        <p>
          Approvals of task <code>{taskId}</code>. <Link to={status === 'all' ? '/approvals' : `/approvals?status=${status}`}>Show every task's</Link>
        </p>
      )}
      {status === 'all' ? (
        <>
          <StatusSection status="pending" taskId={taskId} />
          <ResolvedSection taskId={taskId} />
        </>
      ) : (
        <StatusSection status={status} taskId={taskId} />
      )}
    </Page>
  );
}
