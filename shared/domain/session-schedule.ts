import type { OneTimeSchedule } from '#shared/domain/scheduler';
import type { Session } from '#shared/domain/session';

/**
 * The idle close's one-time schedule for a deadline: named by session and deadline, so each
 * deadline has its own and a schedule that fires twice finds the same name.
 */
export function idleCloseSchedule(session: Pick<Session, 'tenant_id' | 'session_id'>, deadline: Date): OneTimeSchedule {
  return {
    name: `sidle-${session.session_id}-${Math.floor(deadline.getTime() / 1000)}`,
    at: deadline,
    target: 'session-idle-close',
    payload: { tenant_id: session.tenant_id, session_id: session.session_id },
  };
}

