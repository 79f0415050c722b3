import type { TaskStatus } from '#shared/domain/task-state';

/**
 * A session: a conversation with one agent, in which tasks run and see what came before (its
 * messages and the artifacts of its earlier tasks). It closes on request or when idle.
 */
export type SessionStatus = 'open' | 'closed';

/** Minutes a session may stay idle before it closes itself (decisions: default one day). */
export const DEFAULT_IDLE_TIMEOUT_MINUTES = 1440;
/** The longest idle timeout: 30 days, so an abandoned session does not stay open for ever. */
export const MAX_IDLE_TIMEOUT_MINUTES = 43_200;

export interface Session {
  session_id: string;
  tenant_id: string;
  /** The canonical slug of the session's agent. */
  agent: string;
  status: SessionStatus;
  title: string | null;
  metadata: Record<string, string>;
  idle_timeout_minutes: number;
  created_at: string;
  last_activity_at: string;
  task_count: number;
  closed_at?: string;
  close_reason?: string;
}

export type MessageRole = 'user' | 'agent';

export interface SessionMessage {
  message_id: string;
  session_id: string;
  role: MessageRole;
  content: string;
  created_at: string;
  task_id?: string;
  /** An agent's message: how the task ended and the artifacts it left. */
  outcome?: TaskStatus;
  artifact_ids?: string[];
}

/** The session as clients see it. */
export function renderSession(session: Session) {
  return {
    session_id: session.session_id,
    agent: session.agent,
    status: session.status,
    title: session.title,
    metadata: session.metadata,
    idle_timeout_minutes: session.idle_timeout_minutes,
    created_at: session.created_at,
    last_activity_at: session.last_activity_at,
    task_count: session.task_count,
    closed_at: session.closed_at ?? null,
    close_reason: session.close_reason ?? null,
  };
}

export function renderMessage(message: SessionMessage) {
  return {
    message_id: message.message_id,
    session_id: message.session_id,
    role: message.role,
    content: message.content,
    created_at: message.created_at,
    ...(message.task_id ? { task_id: message.task_id } : {}),
    ...(message.outcome ? { outcome: message.outcome } : {}),
    ...(message.artifact_ids ? { artifact_ids: message.artifact_ids } : {}),
  };
}

/** When an open session closes itself unless something happens first. */
export function idleDeadline(session: Pick<Session, 'last_activity_at' | 'idle_timeout_minutes'>): Date {
  return new Date(Date.parse(session.last_activity_at) + session.idle_timeout_minutes * 60_000);
}

const OUTCOME_WORDS: Partial<Record<TaskStatus, string>> = { complete: 'completed', failed: 'failed', cancelled: 'was cancelled' };

/** The agent's message when a task of the session ends: the outcome and the artifacts, in words. */
export function agentMessageContent(task: { task_id: string; task_type: string }, outcome: TaskStatus, artifactIds: readonly string[], error?: { code: string; message: string }): string {
  const head = `Task ${task.task_id} (${task.task_type}) ${OUTCOME_WORDS[outcome] ?? outcome}`;
  const artifacts = artifactIds.length === 0 ? 'no artifacts' : `${artifactIds.length === 1 ? 'artifact' : 'artifacts'} ${artifactIds.join(', ')}`;
  const why = error ? `: ${error.code}: ${error.message}` : '';
  return `${head}${why}; ${artifacts}.`;
}
