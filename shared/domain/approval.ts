import type { ApprovalDecision } from '#shared/agents/agent';
import { InvalidRequestError } from '#shared/domain/errors';
import type { Principal } from '#shared/domain/roles';
import { toolNamed } from '#shared/domain/tools';

export type ApprovalStatus = 'pending' | 'approved' | 'denied';
export type ApprovalAction = { type: string } & Record<string, unknown>;

/** A decision made by clicking in team chat: the Slack user, through which integration. */
export interface ChatDecider {
  type: 'chat';
  id: string;
  user_id: string;
  integration_id: string;
  name?: string;
}

/** Who may resolve an approval: a caller of the API or dashboard, or a person in team chat. */
export type Decider = Principal | ChatDecider;

/** An agent action that touches the outside world, waiting for (or past) a human decision. */
export interface Approval {
  approval_id: string;
  tenant_id: string;
  task_id: string;
  agent: string;
  /** The agent-context call that asked; the decision is replayed into that call. */
  step: number;
  title: string;
  description: string;
  /** The action to execute: the modified one once a human edited it. */
  action: ApprovalAction;
  /** The agent's action, kept when `modified_action` replaced it. */
  original_action?: ApprovalAction;
  /** The approval-gated artifact this action belongs to (e.g. the email draft). */
  artifact_id?: string;
  status: ApprovalStatus;
  created_at: string;
  expires_at: string;
  decision?: 'approved' | 'denied';
  resolution?: 'resolved' | 'expired';
  comment?: string;
  resolved_at?: string;
  /** Who decided; absent when the approval expired (nobody decided). */
  resolved_by?: Decider;
  /** Set once the service executed an approved action. */
  execution?: { status: 'executed' | 'failed'; executed_at: string; integration_id?: string | null; result?: Record<string, unknown>; error?: { code: string; message: string } };
}

/** An approval as of `now`: past `expires_at`, a pending approval already reads as denied (expired). */
export function effectiveApproval(approval: Approval, now: Date): Approval {
  if (approval.status !== 'pending' || Date.parse(approval.expires_at) > now.getTime()) return approval;
  return { ...approval, status: 'denied', decision: 'denied', resolution: 'expired', resolved_at: approval.expires_at };
}

export function isExpired(approval: Approval, now: Date): boolean {
  return approval.status === 'pending' && Date.parse(approval.expires_at) <= now.getTime();
}

export function renderApproval(approval: Approval, now: Date) {
  const view = effectiveApproval(approval, now);
  return {
    approval_id: view.approval_id,
    task_id: view.task_id,
    agent: view.agent,
    title: view.title,
    description: view.description,
    action: view.action,
    ...(view.original_action ? { original_action: view.original_action } : {}),
    ...(view.artifact_id ? { artifact_id: view.artifact_id } : {}),
    status: view.status,
    created_at: view.created_at,
    expires_at: view.expires_at,
    ...(view.decision ? { decision: view.decision, resolution: view.resolution, resolved_at: view.resolved_at } : {}),
    ...(view.resolved_by ? { resolved_by: view.resolved_by } : {}),
    ...(view.comment !== undefined ? { comment: view.comment } : {}),
    ...(view.execution ? { execution: view.execution } : {}),
  };
}

/** What the agent's replayed `requestApproval` call returns. */
export function decisionOf(approval: Approval): ApprovalDecision {
  const execution = approval.execution;
  return {
    approval_id: approval.approval_id,
    decision: approval.decision ?? 'denied',
    action: approval.action,
    ...(approval.comment !== undefined ? { comment: approval.comment } : {}),
    resolution: approval.resolution ?? 'resolved',
    ...(approval.execution?.error ? { failure: approval.execution.error } : {}),
    ...(execution ? { execution: { status: execution.status, ...(execution.result ? { result: execution.result } : {}), ...(execution.error ? { error: execution.error } : {}) } } : {}),
  };
}

/**
 * Whether the service carries out an approved action itself (through the tool proxy): always for
 * the built-in agents; for a custom agent's worker, only a Gatehouse tool that acts (`mail.send`,
 * ...): any other action is the worker's own, handed back with the decision on its next claim.
 */
export function serviceExecutes(action: ApprovalAction, runsOn: 'worker' | undefined): boolean {
  return runsOn !== 'worker' || toolNamed(action.type)?.acts === true;
}

const EMAIL = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

/**
 * Checks a human's replacement action: it must keep the action's type and be executable. A
 * `mail.send` needs one recipient address and a one-line subject (no header injection).
 */
export function validateModifiedAction(original: ApprovalAction, modified: Record<string, unknown>): ApprovalAction {
  const errors: { path: string; message: string }[] = [];
  if (modified.type !== original.type) errors.push({ path: 'body.modified_action.type', message: `must stay '${original.type}'` });
  if (original.type === 'mail.send') {
    for (const field of ['to', 'subject', 'body'] as const) {
      if (typeof modified[field] !== 'string' || (modified[field] as string).trim() === '') errors.push({ path: `body.modified_action.${field}`, message: 'must be a non-empty string' });
    }
    if (typeof modified.to === 'string' && !EMAIL.test(modified.to)) errors.push({ path: 'body.modified_action.to', message: 'must be one email address' });
    if (typeof modified.subject === 'string' && /[\r\n]/.test(modified.subject)) errors.push({ path: 'body.modified_action.subject', message: 'must be one line' });
    if (typeof modified.subject === 'string' && modified.subject.length > 998) errors.push({ path: 'body.modified_action.subject', message: 'must be at most 998 characters' });
    const unknown = Object.keys(modified).filter((key) => !['type', 'to', 'subject', 'body'].includes(key));
    for (const key of unknown) errors.push({ path: `body.modified_action.${key}`, message: 'unknown field for mail.send' });
  }
  if (errors.length > 0) throw new InvalidRequestError('The modified action cannot replace this approval\'s action.', errors);
  return modified as ApprovalAction;
}
