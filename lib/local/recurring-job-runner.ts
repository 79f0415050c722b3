import type { RecurringJobDefinition } from '#shared/config/topology';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { IntervalLoop } from '#lib/local/interval-loop';

/**
 * Plays a recurring EventBridge Scheduler schedule locally: invokes the job's handler in-process
 * every `intervalMs` (one run at a time; the next waits for the previous to end), and logs a
 * failed run instead of stopping, as the next scheduled run would simply come on AWS.
 */
export class RecurringJobRunner {
  private readonly loop: IntervalLoop;

  constructor(
    private readonly job: RecurringJobDefinition,
    intervalMs = job.rateMinutes * 60_000,
  ) {
    this.loop = new IntervalLoop(
      intervalMs,
      async () => {
        const handler = await loadHandler(this.job.handler);
        await handler({ source: 'local.recurring-job', job: this.job.name }, lambdaContext(this.job.name, this.job.timeoutSeconds));
      },
      (error) => console.error(JSON.stringify({ level: 'ERROR', message: 'recurring job failed; it runs again at its next interval', job: this.job.name, error: String(error) })),
      'after-interval',
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the schedule and waits for a run in flight to end. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
