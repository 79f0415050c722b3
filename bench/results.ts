import type { BrowserRenderLimits } from '#shared/adapters/browser/page-renderer';
import type { ChromiumInflation } from './accessibility/chromium-inflation';
import type { RuleCounts } from './accessibility/finding-counts';
import type { AccessibilityScanCost, DetectorFunctions } from './accessibility/scan-cost';
import type { AuthorizerLatency } from './dashboard/authorizer-latency';
import type { ListPageTiming } from './dashboard/browser-timings';
import type { InitialJavaScript } from './dashboard/initial-javascript';
import type { BenchConfig } from './config';
import type { CostBreakdown, UnitUsage } from './cost';
import type { IdleCloseComparison } from './idle-close-cost';
import type { LoadResult } from './load';
import type { MeterSnapshot } from './metering';
import type { LatencySummary } from './stats';
import type { ClaimCalls } from './claim-calls';
import type { IdleDesignCost, MeasuredClaim } from './worker-cost';

/** The shape of bench/results.json. Each phase's part is absent when that phase did not run. */
/** Figures of some phases kept from an earlier run, and which run that was. */
export interface CarriedOver {
  commit: string;
  generatedAt: string;
  phases: string[];
}

/** The runs a results file's carried-over figures come from (an older file holds one object, not a list). */
export function carriedOverRuns(results: Pick<BenchResults, 'carriedOver'>): CarriedOver[] {
  const carried = results.carriedOver;
  return carried === undefined ? [] : Array.isArray(carried) ? carried : [carried];
}

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
  triggers?: TriggersReport;
  integrations?: import('./phases/integrations').IntegrationsReport;
  workers?: WorkersReport;
  accessibility?: AccessibilityReport;
  schemas?: SchemasReport;
  /** Phases this run did not measure, kept from an earlier run (BENCH_PHASES). */
  /** Phases not measured in this run, kept from the runs that did measure them (one entry per run; results of older files hold one object). */
  carriedOver?: CarriedOver[] | CarriedOver;
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

/** One page of the bundled site in the accessibility phase: both audits' times (ms) and findings. */
export interface AccessibilityPage {
  path: string;
  bytes: number;
  /** `accessibilityDetector.run` on this page alone with a warm renderer. */
  browser: LatencySummary;
  /** The former jsdom audit of the same page. */
  jsdom: LatencySummary;
  /** Violating elements per rule, first measured round. */
  browserFindings: RuleCounts;
  jsdomFindings: RuleCounts;
  /** Some round found other counts than the first (either audit). */
  findingsVaried: boolean;
  /** What the detector reported it could not do on this page (blocked subresources, failures). */
  problems: string[];
}

/** The accessibility phase (bench/phases/accessibility.ts). */
export interface AccessibilityReport {
  /** The bundled site crawled with a scan's default limits. */
  site: { pages: number; crawlMs: number; problems: number; wcagLevel: string };
  /** The machine that measured it (the run's header may be another's when these figures are carried over). */
  machine: Pick<MachineInfo, 'cpus' | 'cpuModel'>;
  /** Measured rounds per page, after one unmeasured round. */
  rounds: number;
  renderLimits: BrowserRenderLimits;
  pages: AccessibilityPage[];
  browser: {
    chromiumVersion: string;
    executable: string;
    /** A new renderer's first (trivial) page: the launch included. */
    firstPage: LatencySummary;
    /** The same trivial page once launched: a tab, the document, the network-idle wait, the close. */
    trivialPage: LatencySummary;
    /** `launchChromium` (the server started and connected to): the cold start every detector run pays. */
    launch: LatencySummary;
    /** The first page less the same page once launched, per launch: a cross-check, within the pages' own noise. */
    firstPageExtra: LatencySummary;
    /** Each round's pages summed: the whole site per detector run, launch excluded. */
    site: LatencySummary;
    memory: {
      /** Highest summed VmRSS of the browser's processes, sampled every `sampleIntervalMs`. */
      peakBrowserRssBytes: number;
      browserProcesses: number;
      samples: number;
      sampleIntervalMs: number;
      sampledSeconds: number;
      /** This (bench) process: RSS before the window and its peak (VmHWM) in it. */
      nodeRssBeforeBytes: number;
      peakNodeRssBytes: number;
    };
  };
  jsdom: { site: LatencySummary; memory: { nodeRssBeforeBytes: number; peakNodeRssBytes: number } };
  inflation: ChromiumInflation;
  functions: DetectorFunctions;
  cost: AccessibilityScanCost;
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

/** One function's usage per unit of work, metered alone, and its price (bench/phases/triggers.ts). */
export interface HopCost {
  units: number;
  /** Invocations that threw. */
  failed: number;
  usage: UnitUsage;
  cost: CostBreakdown;
}

/** The triggers phase (bench/phases/triggers.ts). */
export interface TriggersReport {
  /** /health while the 470 KiB `<script>` mail arrives (bench/inbound-mail-stall.ts); absent in older results. */
  inboundMail?: import('./inbound-mail-stall').InboundMailStallReport;
  /** Fires (or artifacts) per series at one trigger. */
  samples: number;
  /** Measured rounds of 200 simultaneous fires. */
  rounds: number;
  /** The local stand-ins' polls, which the figures leave out (schedule) or show beside their floor (stream). */
  schedulePollMs: number;
  streamPollMs: number;
  /** The `trigger-fire` target invoked → its task's `created_at`, and → the handler returned. */
  schedule: {
    triggers: number;
    /** Fires in flight at once in this process (200 triggers: FIRES_IN_FLIGHT of the 200 at a time). */
    firesAtOnce: number;
    created: LatencySummary;
    handlerReturned: LatencySummary;
    /** The floor: the same task created in-process without a trigger, as many at once. */
    floor: LatencySummary;
  }[];
  /** `artifact.emitted` event's `created_at` → the triggered task's `created_at`; the floor without the stream. */
  event: { triggers: number; matching: number; viaStream: LatencySummary; floor: LatencySummary }[];
  hops: {
    /** One `trigger-fire` invocation that starts a task (overlap: skip, the previous task ended). */
    schedule: HopCost;
    /** One event-trigger consumer invocation with one record that starts one task, 1 or 200 triggers of the tenant. */
    eventAt1: HopCost;
    eventAt200: HopCost;
    /** One with an artifact no trigger waits for: what every artifact now costs. */
    eventNoMatchAt1: HopCost;
    eventNoMatchAt200: HopCost;
  };
  idleClose: {
    fires: { rescheduled: HopCost; closed: HopCost };
    /** An open session's item, as stored (JSON bytes): the sweep's index entry is a part of it. */
    sessionItemBytes: number;
    comparison: IdleCloseComparison;
    /** The same without the index writes of activity (an index whose entry activity does not move). */
    withoutActivityWrites: IdleCloseComparison;
  };
}

/** Claims of one throughput run: `workers` loops of claim (no wait) → complete until `tasks` are done. */
export interface ClaimThroughputRun {
  workers: number;
  tasks: number;
  /** Tasks claimed and completed. */
  completed: number;
  seconds: number;
  /** completed ÷ seconds: each loop also completes what it claimed, so this is claim → complete. */
  claimsPerSecond: number;
  /** Claims that got a task, each timed alone. */
  claim: LatencySummary;
  /** Claims that answered 204 (no task) while tasks still waited: every entry of the head read was won by others. */
  emptyWhileQueued: number;
  /** The claims' DynamoDB calls (looks, lost races at the task read and at the transaction). */
  calls: ClaimCalls;
  errors: number;
  errorSamples: string[];
}

/** The schemas phase (bench/phases/schemas.ts): task creations of a custom agent with a wide input schema. */
export interface SchemasReport {
  /** Fields of the agent's input schema. */
  fields: number;
  /** POST /tasks made, one after another. */
  tasks: number;
  /** Of those, tasks that failed their input (none expected: the input is valid). */
  failedTasks: number;
  /** This process's RSS (the runtime shares it) after the deploy, before the first creation. */
  rssBeforeMib: number;
  /** … after the last creation. */
  rssAfterMib: number;
  /** … its peak during the creations. */
  peakRssMib: number;
  /** POST /tasks, request to answer. */
  createTask: LatencySummary;
}

/** The workers phase (bench/phases/workers.ts): the worker protocol of custom agents. */
export interface WorkersReport {
  /** The memory the waiting claim route is priced at (`sizeOf`), and the other protocol routes. */
  claimMemoryMb: number;
  routeMemoryMb: number;
  /** A task waits; one worker claims it without a wait (HTTP). */
  queuedClaim: { rounds: number; warmUp: number; http: LatencySummary; handler: LatencySummary };
  /** A worker waits (`wait_seconds: 20`); a task is created 0 to `maxDelayMs` later. */
  waitingClaim: {
    samples: number;
    maxDelayMs: number;
    /** POST /tasks answered → the claim answered with that task. */
    createdToClaimed: LatencySummary;
    /** The task's `created_at` (minted before its transaction) → the claim answered. */
    createdAtToClaimed: LatencySummary;
    /** The model: arrivals spread over the same span, to the next look of the schedule. */
    nextLookModel: LatencySummary;
  };
  /** Claims per second over HTTP and in-process (the floor: claimTask and completeTask, no HTTP). */
  throughput: { workers: number; http: ClaimThroughputRun; floor: ClaimThroughputRun }[];
  /** One empty 20 s wait and empty claims without a wait, metered (handler, units, looks). */
  longPoll: { waiting: MeasuredClaim; empty: MeasuredClaim; modelLooks: number; lookTimesMs: number[] };
  /** An idle claim loop's month under the chosen design and the alternatives. */
  idle: IdleDesignCost[];
  /** A custom agent's task, metered whole: created by POST /tasks, claimed, heartbeats, one artifact, completed, its webhook delivered. */
  perTask: {
    units: number;
    errors: number;
    heartbeatsPerTask: number;
    /** Why that many heartbeats. */
    assumption: string;
    usage: UnitUsage;
    cost: CostBreakdown;
    /** Per task: conditional writes that failed (priced by DynamoDB, not counted in `usage`), by command. */
    failedConditionalWrites: Record<string, number>;
  };
}
