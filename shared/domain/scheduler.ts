/**
 * One-time schedules as a port: "call this target with this payload at that time". The domain
 * asks for a schedule (an approval's expiry) and cancels it on resolution; EventBridge Scheduler
 * runs it on AWS, the table adapter with the local runner runs it locally.
 */

/** What a schedule invokes. Each target is one Lambda handler whose event is the payload. */
export type ScheduleTarget = 'approval-expiry' | 'session-idle-close' | 'trigger-fire';

export const SCHEDULE_TARGETS: readonly ScheduleTarget[] = ['approval-expiry', 'session-idle-close', 'trigger-fire'];

export interface OneTimeSchedule {
  /** Unique per pending schedule, `[0-9a-zA-Z-_.]{1,64}` (EventBridge Scheduler's rule). */
  name: string;
  /** Runs at or after this instant, never before. */
  at: Date;
  target: ScheduleTarget;
  /** The target's event, exactly; must survive JSON. */
  payload: Record<string, unknown>;
}

/**
 * A schedule that repeats on a 5-field cron in a time zone (a schedule trigger). The target's
 * event is `payload` plus `scheduled_time`: the ISO time of the run it is for.
 */
export interface RecurringSchedule {
  name: string;
  cron: string;
  timezone: string;
  start_at?: string;
  end_at?: string;
  target: ScheduleTarget;
  payload: Record<string, unknown>;
}

export interface Scheduler {
  /** Creates the schedule; a schedule of the same name that already exists is left as it is. */
  scheduleOnce(schedule: OneTimeSchedule): Promise<void>;
  /** Creates the recurring schedule, or replaces the one of that name. */
  scheduleRecurring(schedule: RecurringSchedule): Promise<void>;
  /** Removes the schedule (one-time or recurring) so it never runs again; no error if it is absent. */
  cancel(name: string): Promise<void>;
}

const SCHEDULE_NAME = /^[0-9a-zA-Z\-_.]{1,64}$/;

/** Throws unless `name` is a valid schedule name, so both adapters accept exactly the same names. */
export function assertScheduleName(name: string): void {
  if (!SCHEDULE_NAME.test(name)) throw new Error(`Invalid schedule name '${name}': use 1 to 64 of [0-9a-zA-Z-_.].`);
}

/** Throws unless the schedule is well-formed (name, a real instant, a known target). */
export function assertValidSchedule(schedule: OneTimeSchedule): void {
  assertScheduleName(schedule.name);
  if (!(schedule.at instanceof Date) || Number.isNaN(schedule.at.getTime())) throw new Error(`Schedule '${schedule.name}' has no valid time.`);
  if (!SCHEDULE_TARGETS.includes(schedule.target)) throw new Error(`Schedule '${schedule.name}' has unknown target '${String(schedule.target)}'.`);
}
