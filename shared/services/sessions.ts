import { sessionRepository, type SessionListQuery } from '#shared/adapters/dynamodb/session-repository';
import { systemClock, type Clock } from '#shared/domain/clock';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import type { Session } from '#shared/domain/session';

// Reads and the close: no scheduler, no queue. Creating a session (its idle-close schedule), a
// message that starts a task (the task queues) and the idle close live apart, so that each
// function bundles only the clients its access allows (test/infra/bundle-contents.test.ts).

/** 409 `session_closed`: a closed session takes no messages or tasks. */
export function sessionClosedError(sessionId: string): ConflictError {
  return new ConflictError('session_closed', `Session '${sessionId}' is closed; start a new session.`);
}

export async function getSession(tenantId: string, sessionId: string): Promise<Session> {
  const session = await sessionRepository.get(tenantId, sessionId);
  if (!session) throw new NotFoundError('session', sessionId);
  return session;
}

export function listSessions(tenantId: string, query: SessionListQuery) {
  return sessionRepository.list(tenantId, query);
}

export async function listMessages(tenantId: string, sessionId: string, limit: number, cursor?: string) {
  await getSession(tenantId, sessionId);
  return sessionRepository.listMessages(tenantId, sessionId, limit, cursor);
}

/** Closes an open session (`session.closed` with the reason); 409 `session_closed` if it was closed. */
export async function closeSession(tenantId: string, sessionId: string, reason: string, clock: Clock = systemClock): Promise<Session> {
  const session = await getSession(tenantId, sessionId);
  const at = clock.now().toISOString();
  if (session.status !== 'open' || !(await sessionRepository.close(session, reason, at, clock))) throw sessionClosedError(sessionId);
  return { ...session, status: 'closed', closed_at: at, close_reason: reason };
}

