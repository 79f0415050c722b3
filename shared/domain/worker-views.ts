import type { ApprovalDecision } from '#shared/agents/agent';
import { renderTask, type Task } from '#shared/domain/task';
import type { ToolCallRecord } from '#shared/domain/tools';

/** What the worker protocol answers (docs/workers.md). */

/** A decision as a claim hands it back: what was decided on which approval, and what Gatehouse's execution gave. */
export function renderDecision(decision: ApprovalDecision) {
  return {
    // Every decision of a worker's task names its approval (decisionOf); only decisions stored before workers existed lack it.
    approval_id: decision.approval_id ?? '',
    decision: decision.decision,
    action: decision.action,
    ...(decision.comment !== undefined ? { comment: decision.comment } : {}),
    resolution: decision.resolution ?? 'resolved',
    ...(decision.execution ? { execution: decision.execution } : {}),
  };
}

/** A claim: the task, its lease, which claim of the task this is, and the decisions made so far. */
export function renderClaim(claim: { task: Task; lease_id: string; lease_expires_at: string; decisions: ApprovalDecision[] }) {
  return {
    task: renderTask(claim.task),
    lease_id: claim.lease_id,
    lease_expires_at: claim.lease_expires_at,
    attempt: claim.task.claim_count ?? 1,
    decisions: claim.decisions.map(renderDecision),
  };
}

/** A tool call's outcome as the worker gets it (the provider's failure is an outcome, not an error of the call). */
export function renderToolCall(record: ToolCallRecord) {
  return {
    tool_call_id: record.tool_call_id,
    tool: record.tool,
    integration_id: record.integration_id,
    outcome: record.outcome,
    duration_ms: record.duration_ms,
    ...(record.result ? { result: record.result } : {}),
    ...(record.error ? { error: record.error } : {}),
  };
}
