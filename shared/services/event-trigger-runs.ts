import { artifactRepository } from '#shared/adapters/dynamodb/artifact-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { triggerRepository } from '#shared/adapters/dynamodb/trigger-repository';
import { systemClock, type Clock } from '#shared/domain/clock';
import type { ServiceEvent } from '#shared/domain/event';
import type { TaskSource } from '#shared/domain/task';
import { eventRunId, MAX_TRIGGER_DEPTH, type TriggerRun } from '#shared/domain/trigger';
import { logger } from '#shared/observability/logger';
import { limits } from '#shared/config/limits';
import { execute, rootTaskOf, triggerDepth } from '#shared/services/trigger-execution';

/**
 * An artifact was emitted: every enabled event trigger of the tenant waiting for its type (and
 * agent) starts one task, with the artifact and its task as the mapping's context. A chain of
 * triggered tasks stops at depth MAX_TRIGGER_DEPTH (`skipped_depth`), and in breadth once event
 * triggers started GATEHOUSE_EVENT_TRIGGER_FAN_OUT tasks from its originating task (`skipped_budget`):
 * each triggered task carries that root, and its creation spends the root's budget atomically.
 */
export async function fireEventTriggers(event: ServiceEvent, clock: Clock = systemClock): Promise<TriggerRun[]> {
  const artifactId = event.data.artifact_id as string | undefined;
  const artifactType = event.data.type as string | undefined;
  if (event.type !== 'artifact.emitted' || !artifactId || !artifactType || !event.task_id) return [];
  const triggers = (await triggerRepository.listAll(event.tenant_id)).filter(
    (trigger) => trigger.enabled && trigger.source.type === 'event' && trigger.source.artifact_type === artifactType && (!trigger.source.agent || trigger.source.agent === event.agent),
  );
  if (triggers.length === 0) return [];
  const sourceTask = await taskRepository.load(event.tenant_id, event.task_id);
  const artifact = await artifactRepository.get(event.tenant_id, artifactId);
  const depth = (sourceTask ? triggerDepth(sourceTask) : 0) + 1;
  const now = clock.now();
  const runs: TriggerRun[] = [];
  for (const trigger of triggers) {
    const runId = eventRunId(trigger.trigger_id, artifactId, new Date(event.created_at));
    const cause = { source_artifact_id: artifactId, source_task_id: event.task_id };
    const base = { run_id: runId, trigger_id: trigger.trigger_id, at: now.toISOString(), ...cause };
    if (depth > MAX_TRIGGER_DEPTH) {
      const written = await triggerRepository.recordRun(event.tenant_id, { ...base, outcome: 'skipped_depth', reason: `the artifact's task is at depth ${depth - 1} of a trigger chain; chains stop at ${MAX_TRIGGER_DEPTH}` });
      if (written) logger.info('event trigger skipped: chain too deep', { trigger_id: trigger.trigger_id, depth });
      continue;
    }
    if (!artifact || !sourceTask) {
      await triggerRepository.recordRun(event.tenant_id, { ...base, outcome: 'failed', reason: 'the artifact or its task no longer exists (cancelled, deleted or expired)' });
      continue;
    }
    const context = {
      artifact: { artifact_id: artifact.artifact_id, type: artifact.type, data: artifact.data },
      task: { task_id: sourceTask.task_id, agent: sourceTask.agent, task_type: sourceTask.task_type, input: sourceTask.input },
    };
    const root = rootTaskOf(sourceTask);
    const source: TaskSource = { type: 'event', trigger_id: trigger.trigger_id, run_id: runId, source_task_id: sourceTask.task_id, source_artifact_id: artifact.artifact_id, depth, root_task_id: root };
    const fanOut = { root_task_id: root, budget: limits().eventTriggerFanOut };
    runs.push(await execute(trigger, { run_id: runId, at: now.toISOString(), source, context, advance: {}, overlap: false, cause, fanOut }));
  }
  return runs;
}
