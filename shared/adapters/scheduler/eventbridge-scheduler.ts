import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, UpdateScheduleCommand, type CreateScheduleCommandInput, type SchedulerClient } from '@aws-sdk/client-scheduler';
import { getStringFromEnv, once } from '#shared/config/env';
import { systemClock, type Clock } from '#shared/domain/clock';
import { toEventBridgeCron } from '#shared/domain/eventbridge-cron';
import { SCHEDULE_TARGETS, assertScheduleName, assertValidSchedule, type OneTimeSchedule, type RecurringSchedule, type ScheduleTarget, type Scheduler } from '#shared/domain/scheduler';
import { schedulerClient } from '#shared/adapters/scheduler/client';
import { SCHEDULER_ENV, targetArnEnv } from '#shared/adapters/scheduler/environment';
import { SCHEDULE_RETRY_POLICY } from '#shared/adapters/scheduler/retry-policy';

export interface EventBridgeSchedulerConfig {
  groupName: string;
  roleArn: string;
  /** Function ARN per target. */
  targetArns: Record<ScheduleTarget, string>;
}

/**
 * EventBridge rejects an `at()` in the past, and a request takes a moment to arrive: a schedule
 * whose time has passed (or is about to) runs this long from now instead, i.e. promptly.
 */
export const MINIMUM_LEAD_MS = 5_000;

/** Reads the adapter's configuration from the environment the `Schedules` construct sets; throws if any is missing. */
export function eventBridgeSchedulerConfigFromEnv(): EventBridgeSchedulerConfig {
  return {
    groupName: getStringFromEnv(SCHEDULER_ENV.groupName),
    roleArn: getStringFromEnv(SCHEDULER_ENV.roleArn),
    targetArns: Object.fromEntries(SCHEDULE_TARGETS.map((target) => [target, getStringFromEnv(targetArnEnv(target))])) as Record<ScheduleTarget, string>,
  };
}

/**
 * The `at()` expression for a schedule, in UTC: max(at, now + 5 s), rounded UP to the whole
 * second. `at()` has no sub-second part, and rounding down could fire before `at`, when the
 * target would find nothing due yet (an approval not expired) and the schedule would be gone.
 */
export function atExpression(at: Date, now: Date): string {
  const earliest = Math.max(at.getTime(), now.getTime() + MINIMUM_LEAD_MS);
  const second = Math.ceil(earliest / 1000) * 1000;
  return `at(${new Date(second).toISOString().slice(0, 19)})`;
}

/** One-time schedules on EventBridge Scheduler, deleted by the service once they ran. */
export class EventBridgeScheduler implements Scheduler {
  constructor(
    private readonly client: SchedulerClient,
    private readonly config: EventBridgeSchedulerConfig,
    private readonly clock: Clock = systemClock,
  ) {}

  async scheduleOnce(schedule: OneTimeSchedule): Promise<void> {
    assertValidSchedule(schedule);
    try {
      await this.client.send(
        new CreateScheduleCommand({
          Name: schedule.name,
          GroupName: this.config.groupName,
          ScheduleExpression: atExpression(schedule.at, this.clock.now()),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: {
            Arn: this.config.targetArns[schedule.target],
            RoleArn: this.config.roleArn,
            Input: JSON.stringify(schedule.payload),
            RetryPolicy: {
              MaximumRetryAttempts: SCHEDULE_RETRY_POLICY.maximumRetryAttempts,
              MaximumEventAgeInSeconds: SCHEDULE_RETRY_POLICY.maximumEventAgeSeconds,
            },
          },
        }),
      );
    } catch (error) {
      // Same name already scheduled: a retried request, so the schedule we wanted exists.
      if (error instanceof ConflictException || nameOf(error) === 'ConflictException') return;
      throw error;
    }
  }

  /**
   * A cron schedule in the trigger's time zone (EventBridge's six-field cron, translated), kept
   * after each run. The target's input names the run: EventBridge fills in
   * `<aws.scheduler.scheduled-time>`, so a late or repeated delivery still says which time it is for.
   */
  async scheduleRecurring(schedule: RecurringSchedule): Promise<void> {
    assertScheduleName(schedule.name);
    const input: CreateScheduleCommandInput = {
      Name: schedule.name,
      GroupName: this.config.groupName,
      ScheduleExpression: toEventBridgeCron(schedule.cron),
      ScheduleExpressionTimezone: schedule.timezone,
      ...(schedule.start_at ? { StartDate: new Date(schedule.start_at) } : {}),
      ...(schedule.end_at ? { EndDate: new Date(schedule.end_at) } : {}),
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      Target: {
        Arn: this.config.targetArns[schedule.target],
        RoleArn: this.config.roleArn,
        Input: JSON.stringify({ ...schedule.payload, scheduled_time: '<aws.scheduler.scheduled-time>' }),
        RetryPolicy: {
          MaximumRetryAttempts: SCHEDULE_RETRY_POLICY.maximumRetryAttempts,
          MaximumEventAgeInSeconds: SCHEDULE_RETRY_POLICY.maximumEventAgeSeconds,
        },
      },
    };
    try {
      await this.client.send(new CreateScheduleCommand(input));
    } catch (error) {
      if (!(error instanceof ConflictException || nameOf(error) === 'ConflictException')) throw error;
      // UpdateSchedule replaces every field: the same input describes the whole schedule.
      await this.client.send(new UpdateScheduleCommand(input));
    }
  }

  async cancel(name: string): Promise<void> {
    assertScheduleName(name);
    try {
      await this.client.send(new DeleteScheduleCommand({ Name: name, GroupName: this.config.groupName }));
    } catch (error) {
      // Already ran (and was deleted after completion) or already cancelled.
      if (error instanceof ResourceNotFoundException || nameOf(error) === 'ResourceNotFoundException') return;
      throw error;
    }
  }
}

/** By name too: an error from a second copy of the SDK fails `instanceof` but keeps its name. */
function nameOf(error: unknown): string | undefined {
  return (error as { name?: string } | undefined)?.name;
}

/** The process's EventBridge adapter, configured from the environment on first use. */
export const eventBridgeScheduler = once(() => new EventBridgeScheduler(schedulerClient(), eventBridgeSchedulerConfigFromEnv()));
