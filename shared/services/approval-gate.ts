import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { scheduler } from '#shared/adapters/scheduler/scheduler';
import type { ApprovalRequest } from '#shared/agents/agent';
import { DEFAULT_AGENT_CONFIG } from '#shared/domain/agent-deployment';
import type { Approval } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import { newId } from '#shared/domain/ids';
import type { ApprovalGate, HeldLease, StepOutcome } from '#shared/domain/ports';
import type { Task } from '#shared/domain/task';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';
import { approvalEvent } from '#shared/services/approval-events';

/**
 * Creates approvals for the agent runner. The expiry schedule is created before the approval is
 * written: if the write then fails, the schedule later finds nothing pending and does nothing,
 * whereas the other order could leave an approval that never expires.
 */
export const approvalGate: ApprovalGate & { open: typeof openApproval } = {
  async pause(task: Task, step: number, request: ApprovalRequest, gatedArtifactId: string | undefined, lease?: HeldLease): Promise<StepOutcome> {
    return (await openApproval(task, step, request, gatedArtifactId, lease)).outcome;
  },
  open: openApproval,
};

/** Parks the task on a new approval for its call `step`; the approval as written when the write held. */
async function openApproval(task: Task, step: number, request: ApprovalRequest, gatedArtifactId: string | undefined, lease?: HeldLease): Promise<{ outcome: StepOutcome; approval: Approval }> {
  const deployment = await agentRepository.findBySlug(task.tenant_id, task.agent);
  const ttlHours = deployment?.config.approval_ttl_hours ?? DEFAULT_AGENT_CONFIG.approval_ttl_hours;
  const now = systemClock.now();
  const approval: Approval = {
    approval_id: newId('apr', now.getTime()),
    tenant_id: task.tenant_id,
    task_id: task.task_id,
    agent: task.agent,
    step,
    title: request.title,
    description: request.description,
    action: request.action,
    ...(gatedArtifactId ? { artifact_id: gatedArtifactId } : {}),
    status: 'pending',
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlHours * 3600_000).toISOString(),
  };
  await scheduler().scheduleOnce({ name: approval.approval_id, at: new Date(approval.expires_at), target: 'approval-expiry', payload: { tenant_id: task.tenant_id, approval_id: approval.approval_id } });
  const event = approvalEvent('approval.requested', approval, { title: approval.title, action: approval.action, expires_at: approval.expires_at, ...(gatedArtifactId ? { artifact_id: gatedArtifactId } : {}) });
  const outcome = await approvalRepository.pause(task, step, approval, event, lease);
  if (outcome === 'applied') {
    recordMetric('approvalsRequested', 1);
    logger.info('approval requested', { approval_id: approval.approval_id, expires_at: approval.expires_at });
  }
  return { outcome, approval };
}
