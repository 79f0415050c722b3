import { approvalRepository, type ResolutionWrites } from '#shared/adapters/dynamodb/approval-repository';
import { artifactRepository } from '#shared/adapters/dynamodb/artifact-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { decisionOf, isExpired, serviceExecutes, validateModifiedAction, type Approval, type ApprovalStatus, type Decider } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import type { Artifact } from '#shared/domain/artifact';
import type { Principal } from '#shared/domain/roles';
import { artifactExpiry } from '#shared/domain/retention';
import type { Task } from '#shared/domain/task';
import { retentionStamps } from '#shared/services/retention-stamps';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';
import { approvalEvent } from '#shared/services/approval-events';

/** Writes that lose a race are re-read and tried again this many times before answering 409. */
const ATTEMPTS = 4;

/**
 * The approval's gated artifact while it still awaits the decision. Deleted or expired ones are
 * left alone: the resolution's conditional update of a missing artifact would fail forever.
 */
async function pendingGatedArtifact(approval: Approval): Promise<Artifact | undefined> {
  if (!approval.artifact_id) return undefined;
  const artifact = await artifactRepository.get(approval.tenant_id, approval.artifact_id);
  return artifact?.approval_status === 'pending' ? artifact : undefined;
}

function alreadyResolved(approval: Approval): ConflictError {
  return new ConflictError('approval_already_resolved', `The approval was already ${approval.resolution === 'expired' ? 'denied by expiry' : approval.status}.`);
}

/** Counted by the one resolution (or expiry) whose conditional write won. */
function countResolution(approval: Approval, decision: 'approved' | 'denied', resolution: 'resolved' | 'expired'): void {
  recordMetric('approvalsResolved', 1);
  logger.info('approval resolved', { approval_id: approval.approval_id, task_id: approval.task_id, decision, resolution });
}

/**
 * Side effects after a resolution committed; each is repeated by recovery if it is lost here.
 * Loaded on first use: the reads (GET /approvals, GET /approvals/{id}) resolve only the rare
 * approval found past its expiry, and would otherwise load the Scheduler and SQS clients at
 * every cold start.
 */
async function afterResolution(approval: Approval, resumedTask: Task | undefined, toolCall: boolean): Promise<void> {
  const effects = await import('#shared/services/approval-side-effects').catch((error: unknown) => {
    logger.warn('approval side effects could not load; recovery will repeat them', { approval_id: approval.approval_id, error: String(error) });
    return undefined;
  });
  await effects?.afterResolution(approval, resumedTask, toolCall);
}

/**
 * A human decides. Approved: the approval and the artifact become approved and the action goes
 * to the tool proxy, which executes it and then resumes the task. Denied: the artifact becomes
 * denied and the task resumes at once with the denial. Exactly one of racing resolutions (or of a
 * resolution and the expiry) wins; the others get 409.
 */
/** Who decided, as recorded: only the identifying fields (the name as it was when deciding). */
function deciderRecord(decider: Decider): Decider {
  const name = decider.name ? { name: decider.name } : {};
  if (decider.type === 'chat') return { type: 'chat', id: decider.id, user_id: decider.user_id, integration_id: decider.integration_id, ...name };
  return { type: decider.type, id: decider.id, ...name };
}

export async function resolveApproval(
  tenantId: string,
  approvalId: string,
  request: { decision: 'approved' | 'denied'; comment?: string; modified_action?: Record<string, unknown> },
  resolvedBy: Decider,
): Promise<Approval> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const approval = await approvalRepository.get(tenantId, approvalId);
    if (!approval) throw new NotFoundError('approval', approvalId);
    const now = systemClock.now();
    if (isExpired(approval, now)) {
      await expireApproval(tenantId, approvalId);
      throw alreadyResolved({ ...approval, status: 'denied', resolution: 'expired' });
    }
    if (approval.status !== 'pending') throw alreadyResolved(approval);
    const action = request.modified_action ? validateModifiedAction(approval.action, request.modified_action) : approval.action;
    const task = await taskRepository.load(tenantId, approval.task_id);
    if (!task || task.status === 'cancelled') throw new ConflictError('task_not_awaiting_approval', 'The task that asked for this approval was cancelled.');
    const fields = {
      decision: request.decision,
      resolution: 'resolved' as const,
      resolved_at: now.toISOString(),
      // The name as it was when deciding: who decided stays readable after a key or member is gone.
      resolved_by: deciderRecord(resolvedBy),
      action,
      ...(request.comment !== undefined ? { comment: request.comment } : {}),
      ...(request.modified_action ? { original_action: approval.action } : {}),
    };
    const resolved: Approval = { ...approval, ...fields, status: request.decision };
    // Approved actions the service carries out resume the task once executed; any other decision at once.
    const executes = request.decision === 'approved' && serviceExecutes(action, task.runs_on);
    const resume = !executes && task.status === 'awaiting_approval' ? { task, decision: decisionOf(resolved) } : undefined;
    const gated = await pendingGatedArtifact(approval);
    const stamp = gated ? await retentionStamps.current(tenantId) : undefined;
    const writes: ResolutionWrites = {
      status: request.decision,
      fields,
      event: approvalEvent('approval.resolved', approval, { decision: request.decision, resolution: 'resolved', resolved_by: fields.resolved_by, ...(request.comment !== undefined ? { comment: request.comment } : {}), modified: Boolean(request.modified_action) }),
      // Acted on: the artifact now follows the tenant's retention instead of the 7-day limit.
      ...(gated && stamp
        ? { artifactStatus: request.decision, artifactRetention: { expires_at: artifactExpiry({ ...gated, approval_status: request.decision }, stamp.retention_days), retention_version: stamp.version } }
        : {}),
      resume,
      toolCallPending: executes,
    };
    if (await approvalRepository.resolve(approval, writes)) {
      // The retention may have changed between the read and the write (see RetentionStamps).
      if (gated && stamp) await retentionStamps.settle(tenantId, [{ artifact_id: gated.artifact_id, retention_version: stamp.version }]);
      countResolution(approval, request.decision, 'resolved');
      await afterResolution(resolved, resume?.task, executes);
      return resolved;
    }
  }
  const latest = await approvalRepository.get(tenantId, approvalId);
  throw alreadyResolved(latest ?? ({ status: 'denied' } as Approval));
}

/** The schedule's target, and the lazy path of reads: a pending approval past expiry is denied. */
export async function expireApproval(tenantId: string, approvalId: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const approval = await approvalRepository.get(tenantId, approvalId);
    if (!approval || !isExpired(approval, systemClock.now())) return;
    const fields = { decision: 'denied' as const, resolution: 'expired' as const, resolved_at: approval.expires_at, action: approval.action };
    const task = await taskRepository.load(tenantId, approval.task_id);
    const resume = task?.status === 'awaiting_approval' ? { task, decision: decisionOf({ ...approval, ...fields }) } : undefined;
    const ok = await approvalRepository.resolve(approval, {
      status: 'denied',
      fields,
      event: approvalEvent('approval.resolved', approval, { decision: 'denied', resolution: 'expired' }),
      // Not acted on: the artifact keeps its expiry (at most 7 days after it was written).
      ...((await pendingGatedArtifact(approval)) ? { artifactStatus: 'expired' as const } : {}),
      resume,
    });
    if (ok) {
      countResolution(approval, 'denied', 'expired');
      await afterResolution(approval, resume?.task, false);
      return;
    }
  }
}

/** Denies every pending approval of the tenant that is past its expiry, so reads never show them pending. */
export async function expireOverdue(tenantId: string): Promise<void> {
  for (const approval of await approvalRepository.expiredPending(tenantId, systemClock.now().toISOString())) {
    await expireApproval(tenantId, approval.approval_id);
  }
}

export async function getApproval(tenantId: string, approvalId: string): Promise<Approval> {
  let approval = await approvalRepository.get(tenantId, approvalId);
  if (!approval) throw new NotFoundError('approval', approvalId);
  if (isExpired(approval, systemClock.now())) {
    await expireApproval(tenantId, approvalId);
    approval = (await approvalRepository.get(tenantId, approvalId)) ?? approval;
  }
  return approval;
}

export async function listApprovals(tenantId: string, query: { status: ApprovalStatus; agent?: string; taskId?: string; limit: number; cursor?: string }) {
  await expireOverdue(tenantId);
  return approvalRepository.list(tenantId, query);
}
