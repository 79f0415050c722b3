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
