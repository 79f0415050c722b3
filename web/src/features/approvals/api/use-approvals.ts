import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components } from '../../../api/schema';
import type { ApprovalAction, ResolvedBy } from '../lib/action-fields';

/** An approval as the API answers it, with the fields the document leaves open typed. */
export type Approval = components['schemas']['Approval'] & {
  action: ApprovalAction;
  original_action?: ApprovalAction;
  resolved_by?: ResolvedBy;
  execution?: { status: string; executed_at: string; result?: Record<string, unknown> };
};

export type ApprovalStatus = Approval['status'];

/** One status's approvals, newest first, cursor-paged; `taskId` narrows them to one task. */
export function useApprovalList(status: ApprovalStatus, taskId?: string) {
  return usePagedList(['approvals', 'list', status, taskId ?? ''], async (cursor) => {
    const page = data(await api().GET('/approvals', { params: { query: { status, task_id: taskId, cursor, limit: 20 } } }));
    return { items: page.approvals as Approval[], next_cursor: page.next_cursor };
  });
}

/** One approval. */
export function useApproval(approvalId: string) {
  return useQuery({ queryKey: ['approvals', 'one', approvalId], queryFn: async () => data(await api().GET('/approvals/{approval_id}', { params: { path: { approval_id: approvalId } } })) as Approval });
}

export interface Resolution {
  decision: 'approved' | 'denied';
  comment?: string;
  modified_action?: ApprovalAction;
}

/** POST /approvals/{id}/resolve; every approval list and the approval itself are read again after. */
export function useResolveApproval(approvalId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (resolution: Resolution) => data(await api().POST('/approvals/{approval_id}/resolve', { params: { path: { approval_id: approvalId } }, body: resolution })),
    onSettled: () => client.invalidateQueries({ queryKey: ['approvals'] }),
  });
}
