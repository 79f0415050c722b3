import { artifactRepository } from '#shared/adapters/dynamodb/artifact-repository';
import { sessionRepository } from '#shared/adapters/dynamodb/session-repository';
import type { SessionView } from '#shared/agents/agent';
import type { SessionViews } from '#shared/domain/ports';
import type { Task } from '#shared/domain/task';

/** The artifacts a task sees of its session at most: the latest, so a long session stays cheap to read. */
export const SESSION_VIEW_ARTIFACTS = 20;

/**
 * A task's view of its session: the messages written before the task was created, and the
 * artifacts those messages name (the agent names each ended task's artifacts in its message).
 * Bounded by the task's creation time, every replay of the run sees the same view; an artifact
 * deleted meanwhile (retention, DELETE) is left out.
 */
export const sessionViews: SessionViews = {
  async viewFor(task: Task): Promise<SessionView | undefined> {
    if (!task.session_id) return undefined;
    const messages = await sessionRepository.messagesBefore(task.tenant_id, task.session_id, task.created_at);
    const named = messages.flatMap((message) => message.artifact_ids ?? []);
    const artifacts = await artifactRepository.getMany(task.tenant_id, named.slice(-SESSION_VIEW_ARTIFACTS));
    return {
      sessionId: task.session_id,
      messages: messages.map(({ role, content, created_at, task_id }) => ({ role, content, created_at, ...(task_id ? { task_id } : {}) })),
      artifacts: artifacts.map(({ artifact_id, type, task_id, created_at, data }) => ({ artifact_id, type, task_id, created_at, data })),
    };
  },
};
