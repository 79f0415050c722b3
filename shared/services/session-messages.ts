import { sessionRepository } from '#shared/adapters/dynamodb/session-repository';
import { systemClock, type Clock } from '#shared/domain/clock';
import { newId } from '#shared/domain/ids';
import type { Principal } from '#shared/domain/roles';
import type { SessionMessage } from '#shared/domain/session';
import { directSource, type TaskPriority } from '#shared/domain/task';
import { getSession, sessionClosedError } from '#shared/services/sessions';
import { createTask } from '#shared/services/task-creation';

export interface PostMessageRequest {
  content: string;
  task_type?: string;
  input?: Record<string, unknown>;
  priority: TaskPriority;
}

/**
 * A person's message in an open session. With `task_type` it starts a task of the session's
 * agent in the session: the message, the task and both events are one transaction.
 */
export async function postMessage(tenantId: string, principal: Principal, sessionId: string, request: PostMessageRequest, clock: Clock = systemClock): Promise<SessionMessage> {
  const session = await getSession(tenantId, sessionId);
  if (session.status !== 'open') throw sessionClosedError(sessionId);
  const messageId = newId('msg', clock.now().getTime());
  if (request.task_type) {
    const task = await createTask(tenantId, {
      shape: 'slug',
      agentReference: session.agent,
      task_type: request.task_type,
      input: request.input ?? {},
      priority: request.priority,
      session_id: sessionId,
      trigger: directSource(principal),
      message: { message_id: messageId, content: request.content },
    });
    return { message_id: messageId, session_id: sessionId, role: 'user', content: request.content, created_at: task.created_at, task_id: task.task_id };
  }
  const message: SessionMessage = { message_id: messageId, session_id: sessionId, role: 'user', content: request.content, created_at: clock.now().toISOString() };
  if (!(await sessionRepository.addMessage(tenantId, session, message))) throw sessionClosedError(sessionId);
  return message;
}

