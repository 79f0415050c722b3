import type { ReactNode } from 'react';
import { ProblemMessage } from '../../../components/problem-message';
import type { Approval } from '../api/use-approvals';
import { ApprovalCard } from './approval-card';

interface ApprovalListProps {
  items: Approval[];
  isPending: boolean;
  error: unknown;
  retry: () => void;
  empty: ReactNode;
  loading: string;
}

/** A list of approval cards with its loading, error and empty states. */
export function ApprovalList({ items, isPending, error, retry, empty, loading }: ApprovalListProps) {
  if (error) return <ProblemMessage error={error} retry={retry} />;
  if (isPending) return <p className="loading" role="status">{loading}</p>;
  if (items.length === 0) return <div className="empty">{empty}</div>;
  return (
    <ul className="cards approvals">
      {items.map((approval) => (
        <li key={approval.approval_id}>
          <ApprovalCard approval={approval} headingLevel={3} />
        </li>
      ))}
    </ul>
  );
}
