import { idleCloseEvent } from '#functions/sessions/schemas';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { closeIfIdle } from '#shared/services/session-idle-close';

/**
 * Target of a session's idle-close schedule (EventBridge Scheduler on AWS, the schedule runner
 * locally): closes the session with `idle_timeout` if it stayed idle, else schedules the new
 * deadline. Running late, twice, or for a closed or unknown session changes nothing more.
 */
export const handler = observedHandler(async (event: unknown): Promise<void> => {
  const parsed = idleCloseEvent.safeParse(event);
  if (!parsed.success) {
    logger.error('malformed idle-close schedule payload dropped');
    return;
  }
  addLogContext({ tenant_id: parsed.data.tenant_id, session_id: parsed.data.session_id });
  const outcome = await closeIfIdle(parsed.data.tenant_id, parsed.data.session_id);
  logger.info('session idle check', { outcome });
});
