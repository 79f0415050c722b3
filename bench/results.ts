import type { AuthorizerLatency } from './dashboard/authorizer-latency';
import type { ListPageTiming } from './dashboard/browser-timings';
import type { InitialJavaScript } from './dashboard/initial-javascript';
import type { BenchConfig } from './config';
import type { CostBreakdown, UnitUsage } from './cost';
import type { LoadResult } from './load';
import type { MeterSnapshot } from './metering';
import type { LatencySummary } from './stats';

/** The shape of bench/results.json. Each phase's part is absent when that phase did not run. */
export interface BenchResults {
  generatedAt: string;
  commit: string;
  machine: MachineInfo;
  config: BenchConfig;
  routes?: RouteResult[];
  metering?: MeteredScenario[];
  bundles?: BundleReport;
  endToEnd?: EndToEndRun[];
  dashboard?: DashboardReport;
  /** Phases this run did not measure, kept from an earlier run (BENCH_PHASES). */
  carriedOver?: { commit: string; generatedAt: string; phases: string[] };
}

/** The dashboard phase (bench/phases/dashboard.ts). */
export interface DashboardReport {
  initialJavaScript: InitialJavaScript;
  authorizer: AuthorizerLatency;
  listPages: ListPageTiming[];
  /** From the API's answer (the event is written) to the row on an open task page. */
  taskPageEvent: LatencySummary;
  /** The stream's poll interval the target adds 200 ms to. */
  streamPollMs: number;
}

export interface MachineInfo {
  node: string;
  platform: string;
  arch: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  loadAverage: number[];
}

export interface RouteResult {
  route: string;
  runs: { concurrency: number; api: LoadResult; floor: LoadResult }[];
}

export interface MeteredScenario {
  /** A task type, or `scan`. */
  name: string;
  kind: 'task' | 'scan';
  /** Tasks or scans run in the metered window. */
  units: number;
  /** Units that did not end as they should (a failed task, a missing webhook). */
  errors: number;
  usage: UnitUsage;
  cost: CostBreakdown;
  /** Scheduler and transaction details of the window, for the notes. */
  raw: Pick<MeterSnapshot, 'schedulesCreated' | 'schedulesDeleted' | 'emptyReceives' | 'transactions' | 'transactionUnitsPriced' | 'transactionUnitsReportedLocally' | 'localOnlyReadUnits' | 'localOnlyWriteUnits'>;
}

export interface BundleResult {
  handler: string;
  label: string;
  kind: string;
  /** What init loads: `index.mjs` and the chunks it imports statically (bench/bundles.ts). */
  bytes: number;
  /** The other chunks, each loaded by an `import()` on first use. */
  lazyBytes: number;
  /** CPU time of the bundle's import in a fresh process, median (bench/bundles.ts). */
  initMs: number;
  /** Heavy packages the bundle includes, with their bytes in it; `lazy` when only lazy chunks hold them. */
  heavy: { name: string; bytes: number; lazy: boolean }[];
  /** Packages included that the function's declared access never needs. */
  unneeded: string[];
}

export interface BundleReport {
  /** Version of the `node` that measured init (BENCH_INIT_NODE); absent in results written before it was recorded. */
  node?: string;
  floor: { bytes: number; lazyBytes: number; initMs: number };
  functions: BundleResult[];
}

export interface EndToEndRun {
  producers: number;
  seconds: number;
  tasksCreated: number;
  tasksCompleted: number;
  errors: number;
  errorSamples: string[];
  /** POST /tasks sent → the task's `task.complete` event written. */
  createToComplete: LatencySummary;
  /** Event written → its SSE frame received by an `eventsource` client. */
  sse: LatencySummary;
  /** Event written → its webhook delivery received by a loopback receiver. */
  webhook: LatencySummary;
}
