/**
 * How long and how hard the benchmark runs, from the environment. The defaults are the full run
 * the figures in docs/benchmarks.md come from; `BENCH_QUICK=1` shrinks every phase so that a run
 * during development takes a couple of minutes. Each knob can also be set on its own.
 */
export interface BenchConfig {
  quick: boolean;
  /** Measured seconds per route, per concurrency, for the API and again for its floor. */
  routeSeconds: number;
  /** Seconds per producer count of the end-to-end phase. */
  endToEndSeconds: number;
  /** Concurrent clients of the route phase. */
  routeConcurrency: number[];
  /** Concurrent producers of the end-to-end phase. */
  producers: number[];
  /** Tasks run per task type while metering. */
  meteredTasks: number;
  /** Scans run while metering. */
  meteredScans: number;
  /** Fresh `node` processes per bundle whose init time is the median. */
  initRuns: number;
  /**
   * The `node` that loads the bundles for their init time: this one by default, or another
   * (`BENCH_INIT_NODE`), such as Lambda's major version where this machine has an older one.
   */
  initNode: string;
  /** Queue poll loops per consumer in the local runtime (Lambda would scale out instead). */
  workerConcurrency: number;
  /** Fires and artifacts per latency series of the triggers phase (the 200-trigger series fires 200 at once per round). */
  triggerSamples: number;
  /** Measured rounds over the bundled site's pages, per audit, of the accessibility phase. */
  accessibilityRounds: number;
  /** POST /tasks of the 400-field custom agent in the schemas phase. */
  schemaTasks: number;
  /** Phases to run; all by default. */
  phases: Phase[];
}

export const PHASES = ['bundles', 'routes', 'metering', 'end-to-end', 'dashboard', 'triggers', 'integrations', 'workers', 'accessibility', 'schemas'] as const;
export type Phase = (typeof PHASES)[number];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got '${raw}'.`);
  return value;
}

function integers(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(',').map((part) => integer({ [name]: part.trim() }, name, 1));
}

export function benchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  // BENCH_SECONDS is the one knob for "how long": the end-to-end phase at each producer count.
  const seconds = integer(env, 'BENCH_SECONDS', quick ? 10 : 60);
  const phases = (env.BENCH_PHASES ?? PHASES.join(',')).split(',').map((phase) => phase.trim());
  const unknown = phases.filter((phase) => !(PHASES as readonly string[]).includes(phase));
  if (unknown.length > 0) throw new Error(`BENCH_PHASES names unknown phases: ${unknown.join(', ')} (known: ${PHASES.join(', ')}).`);
  return {
    quick,
    routeSeconds: integer(env, 'BENCH_ROUTE_SECONDS', quick ? 3 : 10),
    endToEndSeconds: seconds,
    routeConcurrency: integers(env, 'BENCH_ROUTE_CONCURRENCY', [1, 32]),
    producers: integers(env, 'BENCH_PRODUCERS', [1, 50]),
    meteredTasks: integer(env, 'BENCH_METERED_TASKS', quick ? 5 : 20),
    meteredScans: integer(env, 'BENCH_METERED_SCANS', quick ? 1 : 3),
    initRuns: integer(env, 'BENCH_INIT_RUNS', quick ? 3 : 7),
    initNode: env.BENCH_INIT_NODE?.trim() || process.execPath,
    workerConcurrency: integer(env, 'BENCH_WORKER_CONCURRENCY', 8),
    triggerSamples: integer(env, 'BENCH_TRIGGER_SAMPLES', quick ? 15 : 60),
    accessibilityRounds: integer(env, 'BENCH_ACCESSIBILITY_ROUNDS', quick ? 2 : 5),
    schemaTasks: integer(env, 'BENCH_SCHEMA_TASKS', quick ? 100 : 600),
    phases: phases as Phase[],
  };
}
