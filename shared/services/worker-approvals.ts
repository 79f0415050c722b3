import type { Approval, ApprovalAction } from '#shared/domain/approval';
import type { Caller } from '#shared/domain/roles';
import { approvalGate } from '#shared/services/approval-gate';
import { checkedTool, declaredTaskType } from '#shared/services/worker-checks';
import { leasedTask, leaseLost, releaseSlot, withLeasedTask, workerTask } from '#shared/services/worker-leases';

/**
 * The worker asks a person first: the task parks on a new approval and the lease ends. Once
 * decided, the task waits for a claim again, which hands the decision back. An action of a
 * Gatehouse tool (`mail.send`, ...) is carried out by Gatehouse once approved; any other action
 * type is the worker's own to carry out after the decision.
 */
export async function requestWorkerApproval(caller: Caller, taskId: string, request: { lease_id: string; title: string; description: string; action: ApprovalAction }): Promise<Approval> {
  const taskType = await declaredTaskType(await leasedTask(caller, taskId, request.lease_id));
  const { type, ...args } = request.action;
  checkedTool(taskType, type, args, 'body.action.type', 'body.action');
  const approval = await withLeasedTask(caller, taskId, request.lease_id, async (task) => {
    const opened = await approvalGate.open(task, task.step + 1, { title: request.title, description: request.description, action: request.action }, undefined, { leaseId: request.lease_id });
    if (opened.outcome === 'applied') return opened.approval;
    // Refused: another write of the lease moved the step first (try again), or the lease is gone.
    const now = await workerTask(caller, taskId);
    if (now.status !== 'running' || now.lease_id !== request.lease_id) throw leaseLost(now, request.lease_id);
    return undefined;
  });
  await releaseSlot(approval.tenant_id, request.lease_id);
  return approval;
}

