import { LoadMore } from '../../../components/load-more';
import { mergeNewestFirst } from '../lib/merge-newest';
import { useApprovalList } from '../api/use-approvals';
import { ApprovalList } from './approval-list';

/** Approved and denied approvals together, newest first (the API lists each status on its own). */
export function ResolvedSection({ taskId }: { taskId?: string }) {
  const approved = useApprovalList('approved', taskId);
  const denied = useApprovalList('denied', taskId);
  const sources = [approved, denied];
  const merged = mergeNewestFirst(sources.map((list) => ({ items: list.items, hasMore: Boolean(list.hasNextPage) })), (approval) => approval.created_at);
  const next = sources[merged.loadNext[0] ?? -1];
  return (
    <section aria-labelledby="resolved-heading">
      <h2 id="resolved-heading">Resolved</h2>
      <ApprovalList
        items={merged.items}
        isPending={approved.isPending || denied.isPending}
        error={approved.error ?? denied.error}
        retry={() => sources.forEach((list) => void list.refetch())}
        loading="Loading resolved approvals…"
        empty={<p>Nothing resolved yet. Approvals you approve or deny, and those that expire, appear here.</p>}
      />
      {next && <LoadMore query={next} />}
    </section>
  );
}
