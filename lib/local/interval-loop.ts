/**
 * A round of work every `intervalMs`, one round at a time, until stopped: how the local runtime
 * plays a scheduler. A failed round is reported and the loop goes on, as the next scheduled run
 * would simply come on AWS. `stop()` cuts the wait short and waits for a round in flight.
 */
export class IntervalLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly round: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
    /** `now`: the first round runs at start; `after-interval`: one interval after it. */
    private readonly firstRound: 'now' | 'after-interval' = 'now',
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    if (this.firstRound === 'after-interval') await this.sleep();
    while (this.running) {
      try {
        await this.round();
      } catch (error) {
        if (this.running) this.onError(error);
      }
      if (this.running) await this.sleep();
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
