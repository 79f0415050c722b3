import { summarize, type LatencySummary } from './stats';

export interface LoadResult extends LatencySummary {
  concurrency: number;
  seconds: number;
  /** Operations that finished without error, per second of the measured window. */
  rps: number;
  errors: number;
  /** The first few error messages, so a failing run says why. */
  errorSamples: string[];
}

/**
 * Closed-loop load: `concurrency` clients each run `operation` back to back until `seconds` have
 * passed, as many clients of a service do (the next request goes out when the last one answered).
 * Throughput is what the service sustains at that concurrency, not what a generator pushes.
 * `operation` throws on anything but the expected answer; errors count and are not timed.
 */
export async function closedLoop(operation: (client: number) => Promise<void>, options: { concurrency: number; seconds: number; warmupSeconds?: number }): Promise<LoadResult> {
  const warmupEnds = performance.now() + (options.warmupSeconds ?? 0) * 1000;
  const stopsAt = warmupEnds + options.seconds * 1000;
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const client = async (index: number) => {
    while (performance.now() < stopsAt) {
      const started = performance.now();
      try {
        await operation(index);
        if (started >= warmupEnds) latencies.push(performance.now() - started);
      } catch (error) {
        if (started < warmupEnds) continue;
        errors += 1;
        if (errorSamples.length < 5) errorSamples.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => client(index)));
  // Requests that started in the window but ended after it still count: the window is their start.
  return { concurrency: options.concurrency, seconds: options.seconds, rps: latencies.length / options.seconds, errors, errorSamples, ...summarize(latencies) };
}
