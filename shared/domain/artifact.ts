import { ArtifactTooLargeError, ConflictError, type DomainError } from '#shared/domain/errors';

export type ArtifactApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

export interface Artifact {
  artifact_id: string;
  tenant_id: string;
  task_id: string;
  agent: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  approval_status?: ArtifactApprovalStatus;
  /** When retention removes it (docs/retention.md); null or absent: kept indefinitely. */
  expires_at?: string | null;
  /** The tenant settings version `expires_at` was computed from (re-stamp jobs compare it). */
  retention_version?: number;
  /** Its data's size as counted against its task's byte budget (artifactBytes); absent on artifacts from before the budget. */
  data_bytes?: number;
}

/** What one task may hold of artifacts a worker emits (docs/limits.md): bounds the task record, which lists them. */
export interface ArtifactBudget {
  maxCount: number;
  maxBytes: number;
}

/** An artifact's data as counted against its task's byte budget: its JSON, in UTF-8 bytes. */
export function artifactBytes(data: Record<string, unknown>): number {
  return new TextEncoder().encode(JSON.stringify(data)).length;
}

/**
 * Why a task that lists `count` artifacts of `usedBytes` in all cannot take one more of `bytes`:
 * 409 `artifact_limit_reached` at the count, 413 `artifact_too_large` past the bytes; undefined when it can.
 */
export function artifactBudgetProblem(count: number, usedBytes: number, bytes: number, budget: ArtifactBudget): DomainError | undefined {
  if (count >= budget.maxCount) {
    return new ConflictError('artifact_limit_reached', `A task holds at most ${budget.maxCount} artifacts, and this one has ${count}. Emit fewer, larger artifacts, or delete one first.`);
  }
  if (usedBytes + bytes > budget.maxBytes) {
    return new ArtifactTooLargeError(`A task's artifacts hold at most ${budget.maxBytes} bytes of data in all; this one has ${usedBytes} and the artifact is ${bytes}.`);
  }
  return undefined;
}

export function renderArtifact(artifact: Artifact) {
  return {
    artifact_id: artifact.artifact_id,
    task_id: artifact.task_id,
    type: artifact.type,
    created_at: artifact.created_at,
    data: artifact.data,
    expires_at: artifact.expires_at ?? null,
    ...(artifact.approval_status ? { approval_status: artifact.approval_status } : {}),
  };
}
