import type { ScheduleTarget } from '#shared/domain/scheduler';

/**
 * The environment variables of the scheduler, named once: the CDK `Schedules` construct sets
 * them, the adapters read them. No AWS SDK here, so CDK code can import it.
 */
export const SCHEDULER_ENV = {
  /** `eventbridge` (AWS) or `table` (local runtime). */
  backend: 'SCHEDULER_BACKEND',
  groupName: 'SCHEDULE_GROUP_NAME',
  /** The role EventBridge Scheduler assumes to invoke targets. */
  roleArn: 'SCHEDULER_ROLE_ARN',
} as const;

export type SchedulerBackend = 'eventbridge' | 'table';

/** `approval-expiry` → `SCHEDULE_TARGET_ARN_APPROVAL_EXPIRY`: the env var holding the target's function ARN. */
export function targetArnEnv(target: ScheduleTarget): string {
  return `SCHEDULE_TARGET_ARN_${target.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
