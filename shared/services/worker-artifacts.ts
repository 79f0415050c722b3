import { workerTaskRepository } from '#shared/adapters/dynamodb/worker-task-repository';
import { limits } from '#shared/config/limits';
import { artifactBudgetProblem, artifactBytes, type Artifact, type ArtifactBudget } from '#shared/domain/artifact';
import { systemClock } from '#shared/domain/clock';
import { InvalidRequestError } from '#shared/domain/errors';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import { artifactExpiry } from '#shared/domain/retention';
import type { Caller } from '#shared/domain/roles';
import { retentionStamps } from '#shared/services/retention-stamps';
import { declaredTaskType } from '#shared/services/worker-checks';
import { leasedTask, withLeasedTask } from '#shared/services/worker-leases';

/** The deployment's artifact budget per task (GATEHOUSE_MAX_ARTIFACTS_PER_TASK, GATEHOUSE_MAX_ARTIFACT_BYTES_PER_TASK). */
function artifactBudget(): ArtifactBudget {
  return { maxCount: limits().maxArtifactsPerTask, maxBytes: limits().maxArtifactBytesPerTask };
}

/**
 * An artifact of a type the task type declares, stamped with the tenant's retention, with
 * `artifact.emitted`; within the task's artifact budget (409 past the count, 413 past the bytes),
 * which the write's own condition holds, so concurrent emits cannot pass it either.
 */
export async function emitWorkerArtifact(caller: Caller, taskId: string, request: { lease_id: string; type: string; data: Record<string, unknown> }): Promise<Artifact> {
  const taskType = await declaredTaskType(await leasedTask(caller, taskId, request.lease_id));
  if (!taskType.artifact_types.includes(request.type)) {
    throw new InvalidRequestError(
      `Task type '${taskType.task_type}' does not declare artifact type '${request.type}'; its manifest declares: ${taskType.artifact_types.join(', ')}.`,
      [{ path: 'body.type', message: `must be one of: ${taskType.artifact_types.join(', ')}` }],
      'artifact_type_not_declared',
    );
  }
  const retention = await retentionStamps.current(caller.tenantId);
  const budget = artifactBudget();
  const bytes = artifactBytes(request.data);
  const artifact = await withLeasedTask(caller, taskId, request.lease_id, async (task) => {
    // As read: a clear answer. A write that raced past this finds the same answer on the next read.
    const problem = artifactBudgetProblem(Object.keys(task.artifacts).length, task.artifact_bytes ?? 0, bytes, budget);
    if (problem) throw problem;
    const now = systemClock.now();
    const created: Artifact = { artifact_id: newId('art', now.getTime()), tenant_id: task.tenant_id, task_id: task.task_id, agent: task.agent, type: request.type, created_at: now.toISOString(), data: request.data, data_bytes: bytes };
    const stamped: Artifact = { ...created, expires_at: artifactExpiry(created, retention.retention_days), retention_version: retention.version };
    const event = taskEvent('artifact.emitted', task, { artifact_id: stamped.artifact_id, type: stamped.type }, systemClock);
    return (await workerTaskRepository.emitArtifact(task, { leaseId: request.lease_id }, task.step + 1, stamped, event, budget)) ? stamped : undefined;
  });
  // The retention may have changed between the read and the write (see RetentionStamps).
  await retentionStamps.settle(caller.tenantId, [{ artifact_id: artifact.artifact_id, retention_version: artifact.retention_version }]);
  return artifact;
}

