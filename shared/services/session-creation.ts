import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import { sessionRepository } from '#shared/adapters/dynamodb/session-repository';
import { scheduler } from '#shared/adapters/scheduler/scheduler';
import { findAgentListing, unknownAgentError } from '#shared/agents/directory';
import { systemClock, type Clock } from '#shared/domain/clock';
import { InvalidRequestError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';
import { idleDeadline, type Session } from '#shared/domain/session';
import { idleCloseSchedule } from '#shared/domain/session-schedule';

export interface CreateSessionRequest {
  agent: string;
  title?: string;
  metadata: Record<string, string>;
  idle_timeout_minutes: number;
}

/**
 * Opens a session with a deployed agent. Its idle close is scheduled first: a schedule without
 * its session (the put failed) finds nothing and does nothing, while a session without its
 * schedule would never close itself.
 */
export async function createSession(tenantId: string, request: CreateSessionRequest, clock: Clock = systemClock): Promise<Session> {
  const agent = findAgentListing(request.agent);
  if (!agent && (await agentRepository.findBySlug(tenantId, request.agent))) {
    // A worker's claim does not carry a session's transcript yet, so its tasks could not see what came before.
    throw new InvalidRequestError(`Agent '${request.agent}' is a custom agent: sessions are for the built-in agents. Create its tasks with POST /v1/tasks.`, [{ path: 'body.agent', message: 'is a custom agent; sessions are for the built-in agents' }]);
  }
  if (!agent) throw unknownAgentError(request.agent, 'body.agent');
  const deployed = (await agentRepository.list(tenantId)).some((deployment) => deployment.agent_slug === agent.slug);
  if (!deployed) {
    throw new InvalidRequestError(`Agent '${request.agent}' is not deployed for this tenant. Deploy it with POST /v1/agents/deploy first.`, [{ path: 'body.agent', message: 'not deployed' }], 'agent_not_deployed');
  }
  const now = clock.now();
  const session: Session = {
    session_id: newId('ses', now.getTime()),
    tenant_id: tenantId,
    agent: agent.slug,
    status: 'open',
    title: request.title ?? null,
    metadata: request.metadata,
    idle_timeout_minutes: request.idle_timeout_minutes,
    created_at: now.toISOString(),
    last_activity_at: now.toISOString(),
    task_count: 0,
  };
  await scheduler().scheduleOnce(idleCloseSchedule(session, idleDeadline(session)));
  await sessionRepository.create(session);
  return session;
}

