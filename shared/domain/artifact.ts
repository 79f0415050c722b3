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
}

export function renderArtifact(artifact: Artifact) {
  return {
    artifact_id: artifact.artifact_id,
    task_id: artifact.task_id,
    type: artifact.type,
    created_at: artifact.created_at,
    data: artifact.data,
    ...(artifact.approval_status ? { approval_status: artifact.approval_status } : {}),
  };
}
