import { artifactRepository } from '#shared/adapters/dynamodb/artifact-repository';
import type { Artifact } from '#shared/domain/artifact';
import { NotFoundError } from '#shared/domain/errors';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';

/** The artifacts a task has emitted so far, oldest first. Discarded (cancelled) ones are gone. */
export async function listTaskArtifacts(tenantId: string, taskId: string): Promise<Artifact[]> {
  const task = await taskRepository.load(tenantId, taskId);
  if (!task) throw new NotFoundError('task', taskId);
  const ids = Object.keys(task.artifacts).sort();
  return artifactRepository.getMany(tenantId, ids);
}

export async function getArtifact(tenantId: string, artifactId: string): Promise<Artifact> {
  const artifact = await artifactRepository.get(tenantId, artifactId);
  if (!artifact) throw new NotFoundError('artifact', artifactId);
  return artifact;
}

export function deleteArtifact(tenantId: string, artifactId: string): Promise<void> {
  return artifactRepository.delete(tenantId, artifactId);
}
