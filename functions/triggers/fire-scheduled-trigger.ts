import { triggerFireEvent } from '#functions/triggers/schemas';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { fireSchedule } from '#shared/services/scheduled-trigger-runs';

/**
 * Target of a schedule trigger's schedule (EventBridge Scheduler on AWS, the schedule runner
 * locally): one run for the scheduled time the event names. Twice, late, or for a trigger that
 * is gone: exactly one run per scheduled time, or nothing, said in the log.
 */
export const handler = observedHandler(async (event: unknown): Promise<void> => {
  const parsed = triggerFireEvent.safeParse(event);
  if (!parsed.success) {
    logger.error('malformed trigger schedule payload dropped');
    return;
  }
  addLogContext({ tenant_id: parsed.data.tenant_id, trigger_id: parsed.data.trigger_id });
  const scheduled = parsed.data.scheduled_time ? new Date(parsed.data.scheduled_time) : undefined;
  const run = await fireSchedule(parsed.data.tenant_id, parsed.data.trigger_id, scheduled && !Number.isNaN(scheduled.getTime()) ? scheduled : undefined);
  if (run) logger.info('trigger ran', { run_id: run.run_id, outcome: run.outcome, task_id: run.task_id, scheduled_for: run.scheduled_for });
});
