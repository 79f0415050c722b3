import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentInvocation, observeInvocations } from '#lib/local/handler-loader';
import { workerTaskRepository } from '#shared/adapters/dynamodb/worker-task-repository';
import type { Caller } from '#shared/domain/roles';
import { createTask as createTaskInProcess } from '#shared/services/task-creation';
import { claimTask } from '#shared/services/worker-claims';
import { completeTask } from '#shared/services/worker-tasks';
import { apiClient, type ApiClient } from '../api-client';
import { startBenchEngines, startBenchRuntime } from '../bench-runtime';
import { countClaimCalls } from '../claim-calls';
import { nextLookModel } from '../claim-schedule';
import type { BenchConfig } from '../config';
import { DEFAULT_MEMORY_MB } from '../functions';
import { machineInfo } from '../machine';
import { progress } from '../progress';
import type { ClaimThroughputRun, WorkersReport } from '../results';
import { summarize, type LatencySummary } from '../stats';
import { idleDesignCosts, WAITING_ROUTE_MEMORY_MB } from '../worker-cost';
import { meterTasksAndWaits, type Metered } from '../worker-metering';
import { claim, CLAIM_FILE, createAgentTask, deployBenchAgent, LEASE_SECONDS, leaseCalls, LONGEST_WAIT_SECONDS, TASK_INPUT, TASK_TYPE, workerOn, type BenchAgent } from '../worker-workload';

/** The agent whose queue the measured series fill, and one whose queue stays empty (the idle waits). */
const AGENT = 'bench-invoices';
const IDLE_AGENT = 'bench-idle';
const FLOOR_SCOPE = 'in-process claim';
const WORKER_COUNTS = [1, 32];
/** A task appears this long after the worker began to wait, at most (the issue's 0–1.5 s). */
const MAX_ARRIVAL_DELAY_MS = 1_500;
/** Tasks created in-process at once before a throughput run. */
const CREATE_LANES = 8;
/** Every loop of the phase is bounded: a stuck runtime fails or cuts the series instead of hanging it. */
const RUN_TIMEOUT_MS = 120_000;
const ERROR_LIMIT = 50;

const round2 = (value: number) => Math.round(value * 100) / 100;
/** An even spread of [0, 1) that needs no seed: the golden-ratio sequence. */
const spread = (index: number) => (index * 0.6180339887498949) % 1;

interface Sizes {
  queuedRounds: number;
  warmUp: number;
  waitingSamples: number;
  throughputTasks: number;
  emptyClaims: number;
}

/**
 * The worker protocol of custom agents: how soon a worker gets a task (queued already, or
 * arriving while it waits), claims per second over HTTP beside the same DynamoDB calls made
 * in-process, what a custom agent's task costs beside a built-in one's, and what an idle worker's
 * long poll costs a month beside the alternatives. The phase logs at INFO, as deployed (bench/phase.ts):
 * a call's access line is part of its cost. Two runtimes over the same table: the whole runtime
 * while metering, then the API alone while latency and throughput are measured (no queue
 * consumers or stream to compete for the two cores).
 */
export async function run(config: BenchConfig): Promise<WorkersReport> {
  const sizes: Sizes = config.quick
    ? { queuedRounds: 50, warmUp: 5, waitingSamples: 12, throughputTasks: 150, emptyClaims: 10 }
    : { queuedRounds: 200, warmUp: 20, waitingSamples: 30, throughputTasks: 300, emptyClaims: 20 };
  const machine = machineInfo();
  progress(`workers: ${machine.cpus} cores (${machine.cpuModel}), load average ${machine.loadAverage.map((load) => load.toFixed(1)).join(' ')}`);
  const engines = await startBenchEngines();
  const name = 'bench-workers';
  try {
    // Metered first: the table's stream then carries only this runtime's events (the load runtime
    // below runs without the stream, and a later fan-out would deliver its thousands of events).
    const full = await startBenchRuntime({ engines, name, workers: true, workerConcurrency: config.workerConcurrency });
    const tenant = { tenantId: full.tenantId, key: full.key };
    let agent: BenchAgent;
    let metered: Metered;
    try {
      const admin = apiClient(full.baseUrl, full.key);
      agent = await deployBenchAgent(admin, full.baseUrl, AGENT);
      const idleAgent = await deployBenchAgent(admin, full.baseUrl, IDLE_AGENT);
      metered = await meterTasksAndWaits(admin, agent, idleAgent, config.meteredTasks, sizes.emptyClaims);
      const { waiting, modelLooks } = metered.longPoll;
      if (waiting.looks !== modelLooks) progress(`workers: a ${waiting.waitSeconds} s wait made ${waiting.looks} looks, the schedule's model ${modelLooks}: bench/claim-schedule.ts no longer matches shared/services/worker-claims.ts`);
    } finally {
      await full.stop();
    }

    const load = await startBenchRuntime({ engines, name, workers: false, eventFanOut: false, workerConcurrency: config.workerConcurrency, tenant });
    try {
      const measured = await measureLatencyAndThroughput(apiClient(load.baseUrl, load.key), workerOn(agent, load.baseUrl), tenant.tenantId, sizes);
      const report: WorkersReport = {
        claimMemoryMb: WAITING_ROUTE_MEMORY_MB,
        routeMemoryMb: DEFAULT_MEMORY_MB,
        ...measured,
        longPoll: metered.longPoll,
        idle: idleDesignCosts(metered.longPoll.empty, metered.longPoll.waiting),
        perTask: metered.perTask,
      };
      for (const line of summaryLines(report)) progress(`workers: ${line}`);
      return report;
    } finally {
      await load.stop();
    }
  } finally {
    await engines.stop();
  }
}

/** On the API alone: the two claim latencies, then claims per second over HTTP beside the floor. */
async function measureLatencyAndThroughput(admin: ApiClient, agent: BenchAgent, tenantId: string, sizes: Sizes): Promise<Pick<WorkersReport, 'queuedClaim' | 'waitingClaim' | 'throughput'>> {
  const claimDurations: number[] = [];
  observeInvocations(({ file, durationMs }) => {
    if (file === CLAIM_FILE) claimDurations.push(durationMs);
  });
  const floorScope = new AsyncLocalStorage<string>();
  const counter = countClaimCalls(() => currentInvocation() ?? floorScope.getStore());
  try {
    const queuedClaim = await measureQueuedClaim(admin, agent, sizes, claimDurations);
    const waitingClaim = await measureWaitingClaim(admin, agent, sizes.waitingSamples);
    const caller: Caller = { tenantId, principal: { type: 'api_key', id: 'key_bench' }, role: 'agent', agent: AGENT };
    const http: ClaimLoop = { scope: CLAIM_FILE, claim: () => claim(agent, 0).then((answer) => answer && { done: () => leaseCalls(agent, answer).complete() }) };
    const floor: ClaimLoop = {
      scope: FLOOR_SCOPE,
      claim: () =>
        floorScope.run(FLOOR_SCOPE, () => claimTask(caller, AGENT, { wait_seconds: 0, lease_seconds: LEASE_SECONDS })).then((answer) => answer && { done: () => completeTask(caller, answer.task.task_id, answer.lease_id) }),
    };
    const throughput: WorkersReport['throughput'] = [];
    for (const workers of WORKER_COUNTS) {
      const overHttp = await measureThroughput(tenantId, 'http', http, workers, sizes.throughputTasks, counter);
      const inProcess = await measureThroughput(tenantId, 'floor', floor, workers, sizes.throughputTasks, counter);
      throughput.push({ workers, http: overHttp, floor: inProcess });
    }
    return { queuedClaim, waitingClaim, throughput };
  } finally {
    observeInvocations(undefined);
    counter.uninstall();
  }
}

/** A task already waits; one worker claims it without a wait, timed; completing it is not. */
async function measureQueuedClaim(admin: ApiClient, agent: BenchAgent, sizes: Sizes, claimDurations: number[]): Promise<WorkersReport['queuedClaim']> {
  progress(`workers: claim of a queued task over HTTP, ${sizes.queuedRounds} rounds after ${sizes.warmUp} unmeasured`);
  const http: number[] = [];
  const handler: number[] = [];
  for (let round = 0; round < sizes.warmUp + sizes.queuedRounds; round++) {
    const created = await createAgentTask(admin, agent.slug);
    claimDurations.length = 0;
    const started = performance.now();
    const claimed = await claim(agent, 0);
    const took = performance.now() - started;
    if (claimed?.task.task_id !== created.task_id) throw new Error(`the claim answered ${claimed ? `task ${claimed.task.task_id}` : '204'}, not the queued task ${created.task_id}`);
    await leaseCalls(agent, claimed).complete();
    if (round < sizes.warmUp) continue;
    http.push(round2(took));
    handler.push(round2(claimDurations[0] ?? Number.NaN));
  }
  return { rounds: sizes.queuedRounds, warmUp: sizes.warmUp, http: summarize(http), handler: summarize(handler) };
}

/**
 * A worker waits (`wait_seconds: 20`); a task is created some time later, spread evenly over
 * 0–1.5 s, and the claim's answer is timed from the creation's answer (and from the task's
 * `created_at`, minted just before its transaction, on the same clock).
 */
async function measureWaitingClaim(admin: ApiClient, agent: BenchAgent, samples: number): Promise<WorkersReport['waitingClaim']> {
  progress(`workers: enqueue → claimed with a worker waiting, ${samples} tasks created 0–${MAX_ARRIVAL_DELAY_MS} ms into its wait`);
  const fromAnswer: number[] = [];
  const fromCreatedAt: number[] = [];
  for (let index = -1; index < samples; index++) {
    const waiting = claim(agent, LONGEST_WAIT_SECONDS);
    await sleep(Math.round(spread(index + 1) * MAX_ARRIVAL_DELAY_MS));
    const created = await createAgentTask(admin, agent.slug);
    const answered = Date.now();
    const claimed = await waiting;
    const at = Date.now();
    if (claimed?.task.task_id !== created.task_id) throw new Error(`the waiting claim answered ${claimed ? `task ${claimed.task.task_id}` : '204'}, not the new task ${created.task_id}`);
    await leaseCalls(agent, claimed).complete();
    if (index < 0) continue; // the warm-up
    fromAnswer.push(at - answered);
    fromCreatedAt.push(at - Date.parse(created.created_at));
  }
  return {
    samples,
    maxDelayMs: MAX_ARRIVAL_DELAY_MS,
    createdToClaimed: summarize(fromAnswer),
    createdAtToClaimed: summarize(fromCreatedAt),
    nextLookModel: nextLookModel(MAX_ARRIVAL_DELAY_MS, LONGEST_WAIT_SECONDS),
  };
}

/** One worker's claim: the task it got and how to complete it, or undefined (no task). */
interface ClaimLoop {
  /** The counter's scope of its DynamoDB calls. */
  scope: string;
  claim(): Promise<{ done(): Promise<unknown> } | undefined>;
}

/**
 * `workers` loops of claim (no wait) → complete over `tasks` tasks created beforehand, until all
 * are claimed: claims per second, each claim's latency, and the races lost to other workers.
 */
async function measureThroughput(tenantId: string, path: 'http' | 'floor', loop: ClaimLoop, workers: number, tasks: number, counter: ReturnType<typeof countClaimCalls>): Promise<ClaimThroughputRun> {
  await createTasksInProcess(tenantId, tasks);
  progress(`workers: ${tasks} tasks claimed and completed by ${workers} worker(s), ${path === 'http' ? 'over HTTP' : 'in-process (the floor)'}`);
  counter.take(loop.scope);
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  const state = { claimed: 0, completed: 0, empty: 0, errors: 0 };
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  const worker = async () => {
    while (state.claimed < tasks && Date.now() < deadline && state.errors < ERROR_LIMIT) {
      try {
        const started = performance.now();
        const got = await loop.claim();
        const took = performance.now() - started;
        if (!got) {
          // With at least `workers` tasks unclaimed, one waited whatever the others were taking.
          if (tasks - state.claimed >= workers) state.empty += 1;
          continue;
        }
        state.claimed += 1;
        latencies.push(round2(took));
        await got.done();
        state.completed += 1;
      } catch (error) {
        state.errors += 1;
        if (errorSamples.length < 3) errorSamples.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: workers }, () => worker()));
  const seconds = (performance.now() - started) / 1000;
  const calls = counter.take(loop.scope);
  const left = await workerTaskRepository.queueHead(tenantId, AGENT, 10);
  if (left.length > 0) {
    // Cut by the deadline or errors: the next run must start from an empty queue.
    progress(`workers: ${path} at ${workers}: ${tasks - state.claimed} task(s) left unclaimed; clearing them`);
    await drain(loop);
  }
  return { workers, tasks, completed: state.completed, seconds: round2(seconds), claimsPerSecond: round2(state.completed / seconds), claim: summarize(latencies), emptyWhileQueued: state.empty, calls, errors: state.errors, errorSamples };
}

/** Creates the agent's tasks in-process (setup, not measured), a few at a time. */
async function createTasksInProcess(tenantId: string, count: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next++ < count) await createTaskInProcess(tenantId, { shape: 'slug', agentReference: AGENT, task_type: TASK_TYPE, input: TASK_INPUT, priority: 'normal', trigger: { type: 'api' } });
  };
  await Promise.all(Array.from({ length: CREATE_LANES }, () => lane()));
}

/** Claims and completes whatever is left, bounded. */
async function drain(loop: ClaimLoop): Promise<void> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const got = await loop.claim();
    if (!got) return;
    await got.done();
  }
}

/** The figures as progress lines. */
function summaryLines(report: WorkersReport): string[] {
  const pair = (summary: LatencySummary) => `p50 ${summary.p50.toFixed(1)} / p99 ${summary.p99.toFixed(1)} ms`;
  const { waiting, empty, modelLooks } = report.longPoll;
  return [
    `claim of a queued task: HTTP ${pair(report.queuedClaim.http)}, its handler ${pair(report.queuedClaim.handler)}`,
    `enqueue → claimed, worker waiting: ${pair(report.waitingClaim.createdToClaimed)} (from created_at ${pair(report.waitingClaim.createdAtToClaimed)}; next-look model ${pair(report.waitingClaim.nextLookModel)})`,
    ...report.throughput.map(({ workers, http, floor }) => `${workers} worker(s): HTTP ${http.claimsPerSecond} claims/s (claim ${pair(http.claim)}, ${http.calls.takenBeforeWrite + http.calls.transactionsCancelled} lost races, ${http.emptyWhileQueued} empty answers, ${http.errors} errors); floor ${floor.claimsPerSecond}/s (claim ${pair(floor.claim)}, ${floor.calls.takenBeforeWrite + floor.calls.transactionsCancelled} lost races, ${floor.emptyWhileQueued} empty, ${floor.errors} errors)`),
    `a ${waiting.waitSeconds} s empty wait: ${waiting.wallMs.toFixed(0)} ms at the client, handler ${waiting.billedMs.toFixed(0)} ms, ${waiting.looks} looks (model ${modelLooks}), ${waiting.writeUnits} WRU; an empty claim without a wait: ${empty.billedMs} ms, ${empty.looks} look, ${empty.writeUnits} WRU, ${empty.logBytes} log bytes`,
    ...report.idle.map((cost) => `idle month, ${cost.design.name}: $${cost.usd.total.toFixed(2)} (notice within ${cost.noticeWithinMs} ms, ${Math.round(cost.claimsPerMonth)} claims)`),
    `a custom-agent task: $${report.perTask.cost.totalRest.toFixed(2)}/M (REST), ${report.perTask.errors} error(s); failed conditional writes per task ${JSON.stringify(report.perTask.failedConditionalWrites)}`,
  ];
}
