import { triggerRepository } from '#shared/adapters/dynamodb/trigger-repository';
import { systemClock, type Clock } from '#shared/domain/clock';
import { runsSince, scheduledTimeFor } from '#shared/domain/cron-schedule';
import type { TaskSource } from '#shared/domain/task';
import { scheduledRunId, type TriggerRun } from '#shared/domain/trigger';
import { logger } from '#shared/observability/logger';
import { armGapRun } from '#shared/services/trigger-admin';
import { execute } from '#shared/services/trigger-execution';

/**
 * A schedule trigger fired for `scheduledTime` (EventBridge's scheduled time, or the local
 * runner's). Each scheduled time gets exactly one run. A fire that arrives after later times
 * passed (the service was down) runs once, for the latest time, and records the times between as
 * `missed`. A fire for a trigger that no longer exists, or for a time already handled, does nothing.
 */
export async function fireSchedule(tenantId: string, triggerId: string, scheduledTime: Date | undefined, clock: Clock = systemClock): Promise<TriggerRun | undefined> {
  const trigger = await triggerRepository.get(tenantId, triggerId);
  if (!trigger) {
    logger.info('schedule fired for a trigger that no longer exists: nothing to do', { tenant_id: tenantId, trigger_id: triggerId });
    return undefined;
  }
  if (trigger.source.type !== 'schedule') {
    logger.warn('schedule fired for a trigger that is not a schedule: nothing to do', { trigger_id: triggerId });
    return undefined;
  }
  const now = clock.now();
  const latest = scheduledTimeFor(trigger.source, now);
  const target = scheduledTime && (!latest || scheduledTime.getTime() >= latest.getTime()) ? scheduledTime : latest;
  const lastHandled = new Date(trigger.last_scheduled_for ?? trigger.created_at);
  if (!target || target.getTime() <= lastHandled.getTime()) {
    logger.info('schedule fired for a time already handled: nothing to do', { trigger_id: triggerId, scheduled_time: scheduledTime?.toISOString() });
    return undefined;
  }
  const { missed, missedTruncated } = runsSince(trigger.source, lastHandled, target);
  if (missed.length > 0) {
    await triggerRepository.putRuns(
      tenantId,
      missed.map((time, index) => ({
        run_id: scheduledRunId(trigger.trigger_id, time),
        trigger_id: trigger.trigger_id,
        at: now.toISOString(),
        scheduled_for: time.toISOString(),
        outcome: 'missed' as const,
        reason: index === 0 && missedTruncated > 0 ? `the service was not running; ${missedTruncated} earlier times were missed too` : 'the service was not running at this time; one catch-up run covers it',
      })),
    );
  }
  const scheduledFor = target.toISOString();
  const runId = scheduledRunId(trigger.trigger_id, target);
  const advance = { last_scheduled_for: scheduledFor };
  if (!trigger.enabled) {
    // A pause's leftover fire (the schedule is removed on pause; one may already be under way).
    const skipped: TriggerRun = { run_id: runId, trigger_id: trigger.trigger_id, at: now.toISOString(), scheduled_for: scheduledFor, outcome: 'skipped_disabled', reason: 'the trigger is paused' };
    await triggerRepository.recordRun(tenantId, skipped, advance);
    return skipped;
  }
  const source: TaskSource = { type: 'schedule', trigger_id: trigger.trigger_id, run_id: runId, scheduled_for: scheduledFor };
  const run = await execute(trigger, { run_id: runId, at: now.toISOString(), scheduled_for: scheduledFor, source, context: {}, advance, overlap: true });
  await armGapRun(trigger, target);
  return run;
}

