import { Link, useParams } from 'react-router';
import { CopyableId } from '../../components/copyable-id';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { useApproval } from './api/use-approvals';
import { ApprovalCard } from './components/approval-card';

/** One approval, linkable from its task, its events and the inbox. */
export function ApprovalPage() {
  const { approvalId = '' } = useParams();
  const approval = useApproval(approvalId);
  return (
    <Page title={approval.data?.title ?? 'Approval'} intro={<>Approval <CopyableId value={approvalId} label="approval id" /></>}>
      <p>
        <Link to="/approvals">All approvals</Link>
      </p>
      <QueryState query={approval} loading="Loading the approval…">
        {(item) => <ApprovalCard approval={item} />}
      </QueryState>
    </Page>
  );
}
