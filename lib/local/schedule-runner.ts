import { systemClock, type Clock } from '#shared/domain/clock';
import type { ScheduleTarget } from '#shared/domain/scheduler';
import { SCHEDULE_RETRY_POLICY } from '#shared/adapters/scheduler/retry-policy';
import { tableScheduler, type StoredSchedule, type TableScheduler } from '#shared/adapters/scheduler/table-scheduler';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { IntervalLoop } from '#lib/local/interval-loop';

export interface ScheduleRunnerOptions {
  /** Retries after the first failed invocation before the schedule is dropped (EventBridge's MaximumRetryAttempts). */
  maxRetryAttempts?: number;
  /** How long a claim holds a schedule for one run; also the handler's reported timeout. */
  claimMs?: number;
  /** Schedules taken per round. */
  batchSize?: number;
  store?: TableScheduler;
  clock?: Clock;
}

/**
 * Plays EventBridge Scheduler locally over the table adapter: every round it takes the due
 * schedules, invokes each target's handler in-process with the payload as the event, and deletes
 * the schedule once it succeeded (ActionAfterCompletion DELETE). A failure is counted in the item
 * and retried next round; after the last retry the schedule is dropped with an ERROR log line.
 * Each run first claims the schedule with a conditional write, so two runners (or a slow run and
 * the next round) never run one schedule at the same time.
 */
export class ScheduleRunner {
  private readonly loop: IntervalLoop;
  private readonly inFlight = new Set<string>();
  private readonly maxRetryAttempts: number;
  private readonly claimMs: number;
  private readonly batchSize: number;
  private readonly clock: Clock;
  private readonly store: () => TableScheduler;

  constructor(
    private readonly targets: Record<ScheduleTarget, string>,
    intervalMs = 500,
    options: ScheduleRunnerOptions = {},
  ) {
    this.maxRetryAttempts = options.maxRetryAttempts ?? SCHEDULE_RETRY_POLICY.maximumRetryAttempts;
    // As long as a target function may run on AWS (schedule-targets.ts TARGET_TIMEOUT): a run the
    // process died in is retried then, before a minutely schedule's next time comes.
    this.claimMs = options.claimMs ?? 30_000;
    this.batchSize = options.batchSize ?? 25;
    this.clock = options.clock ?? systemClock;
    // Resolved at first round, so TABLE_NAME only needs to be set by then.
    this.store = options.store ? () => options.store! : tableScheduler;
    this.loop = new IntervalLoop(intervalMs, () => this.round(), (error) => console.error(JSON.stringify({ level: 'ERROR', message: 'schedule poll failed', error: String(error) })));
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling and waits for the runs in flight to finish. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async round(): Promise<void> {
    const now = this.clock.now();
    const due = await this.store().dueSchedules(now, this.batchSize);
    await Promise.all(due.filter((schedule) => !this.inFlight.has(schedule.name)).map((schedule) => this.runOne(schedule, now)));
  }

  private async runOne(schedule: StoredSchedule, now: Date): Promise<void> {
    const store = this.store();
    if (!(await store.claim(schedule.name, now, new Date(now.getTime() + this.claimMs)))) return;
    this.inFlight.add(schedule.name);
    try {
      try {
        const file = this.targets[schedule.target];
        if (!file) throw new Error(`no handler for schedule target '${schedule.target}'`);
        const handler = await loadHandler(file);
        const recurrence = await store.recurrenceOf(schedule.name);
        // As EventBridge fills in <aws.scheduler.scheduled-time> for a recurring schedule's run.
        const event = recurrence ? { ...schedule.payload, scheduled_time: schedule.at.toISOString() } : schedule.payload;
        await handler(event, lambdaContext(schedule.target, Math.ceil(this.claimMs / 1000)));
      } catch (error) {
        await this.failed(store, schedule, error);
        return;
      }
      await this.done(store, schedule);
    } finally {
      this.inFlight.delete(schedule.name);
    }
  }

  /** A one-time schedule is deleted once it ran; a recurring one moves on to its next run. */
  private async done(store: TableScheduler, schedule: StoredSchedule): Promise<void> {
    const recurrence = await store.recurrenceOf(schedule.name);
    if (recurrence) await store.advance(schedule.name, schedule.at, recurrence, this.clock.now());
    else await store.complete(schedule.name);
  }

  private async failed(store: TableScheduler, schedule: StoredSchedule, error: unknown): Promise<void> {
    const attempts = await store.recordFailure(schedule.name, String(error));
    if (attempts === undefined) return; // cancelled while it ran
    const log = { schedule: schedule.name, target: schedule.target, attempts, error: String(error) };
    if (attempts > this.maxRetryAttempts) {
      await this.done(store, schedule);
      console.error(JSON.stringify({ level: 'ERROR', message: 'schedule target failed after the last retry; schedule dropped', ...log }));
    } else {
      console.warn(JSON.stringify({ level: 'WARN', message: 'schedule target failed; will retry', ...log }));
    }
  }
}
