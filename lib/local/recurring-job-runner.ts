import type { RecurringJobDefinition } from '#shared/config/topology';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';

/**
 * Plays a recurring EventBridge Scheduler schedule locally: invokes the job's handler in-process
 * every `intervalMs` (one run at a time; the next waits for the previous to end), and logs a
 * failed run instead of stopping, as the next scheduled run would simply come on AWS.
 */
export class RecurringJobRunner {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly job: RecurringJobDefinition,
    private readonly intervalMs = job.rateMinutes * 60_000,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops the schedule and waits for a run in flight to end. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    while (this.running) {
      await this.sleep();
      if (!this.running) break;
      try {
        const handler = await loadHandler(this.job.handler);
        await handler({ source: 'local.recurring-job', job: this.job.name }, lambdaContext(this.job.name, this.job.timeoutSeconds));
      } catch (error) {
        if (this.running) console.error(JSON.stringify({ level: 'ERROR', message: 'recurring job failed; it runs again at its next interval', job: this.job.name, error: String(error) }));
      }
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.intervalMs);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
