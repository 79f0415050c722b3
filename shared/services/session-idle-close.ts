import { sessionRepository } from '#shared/adapters/dynamodb/session-repository';
import { scheduler } from '#shared/adapters/scheduler/scheduler';
import { systemClock, type Clock } from '#shared/domain/clock';
import { idleDeadline } from '#shared/domain/session';
import { idleCloseSchedule } from '#shared/domain/session-schedule';
import { logger } from '#shared/observability/logger';

export type IdleCloseOutcome = 'closed' | 'rescheduled' | 'not_open' | 'gone';

/**
 * The idle close's schedule fired. Activity since the schedule was made pushes the deadline
 * forward: then the next schedule is made for the new deadline, instead of rescheduling on every
 * message (one schedule per idle period, not one update per activity). A close that loses to new
 * activity (its condition on `last_activity_at`) looks again.
 */
export async function closeIfIdle(tenantId: string, sessionId: string, clock: Clock = systemClock): Promise<IdleCloseOutcome> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const session = await sessionRepository.get(tenantId, sessionId);
    if (!session) {
      logger.info('idle close for a session that does not exist: nothing to do', { tenant_id: tenantId, session_id: sessionId });
      return 'gone';
    }
    if (session.status !== 'open') return 'not_open';
    // An ending task's message is activity too; it leaves the session item alone (session-repository.ts).
    const lastMessage = await sessionRepository.lastMessageAt(tenantId, sessionId);
    const lastActivity = lastMessage && lastMessage > session.last_activity_at ? lastMessage : session.last_activity_at;
    const deadline = idleDeadline({ last_activity_at: lastActivity, idle_timeout_minutes: session.idle_timeout_minutes });
    const now = clock.now();
    if (deadline.getTime() > now.getTime()) {
      await scheduler().scheduleOnce(idleCloseSchedule(session, deadline));
      return 'rescheduled';
    }
    if (await sessionRepository.close(session, 'idle_timeout', now.toISOString(), clock, session.last_activity_at)) return 'closed';
  }
  throw new Error(`Session ${sessionId} kept changing while its idle close ran; the schedule's retry will look again.`);
}
