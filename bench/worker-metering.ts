import { currentInvocation } from '#lib/local/handler-loader';
import { waitFor, type ApiClient } from './api-client';
import { countClaimCalls, type ClaimCalls } from './claim-calls';
import { lookTimesMs } from './claim-schedule';
import { costOf, unitUsage } from './cost';
import { benchFunctions } from './functions';
import { Meter, quiet, type MeterSnapshot } from './metering';
import { progress } from './progress';
import type { WorkersReport } from './results';
import { listenForWebhooks } from './webhook-listener';
import { withWaitingRouteMemory, type MeasuredClaim } from './worker-cost';
import { claim, CLAIM_FILE, createAgentTask, leaseCalls, LONGEST_WAIT_SECONDS, type BenchAgent } from './worker-workload';

/**
 * A task of a custom agent that runs 30 s with the SDK's defaults (60 s lease, a heartbeat every
 * third of it): one heartbeat, at 20 s. Each further 20 s of work adds one.
 */
const HEARTBEATS_PER_TASK = 1;
const HEARTBEAT_ASSUMPTION = 'a task that runs 30 s, with the SDK\'s default lease (60 s) and a heartbeat every third of it (20 s): one heartbeat';
/** The events a client of a task subscribes to, as the metering phase does: their deliveries are part of a task's cost. */
const SUBSCRIBED_EVENTS = ['task.complete', 'task.failed', 'approval.requested'];
const WEBHOOK_TIMEOUT_MS = 30_000;
/** Idle waits metered at once (each holds only a timer while it waits). */
const LONG_WAITS_AT_ONCE = 2;

const round2 = (value: number) => Math.round(value * 100) / 100;

export interface Metered {
  perTask: WorkersReport['perTask'];
  longPoll: WorkersReport['longPoll'];
}

/**
 * On the whole runtime, metered as the metering phase meters a built-in task (bench/metering.ts,
 * everything AWS bills, the claim at its 256 MB): custom tasks from POST /tasks to the webhook of
 * their `task.complete`, then empty claims without a wait and empty 20 s waits.
 */
export async function meterTasksAndWaits(admin: ApiClient, agent: BenchAgent, idleAgent: BenchAgent, tasks: number, emptyClaims: number): Promise<Metered> {
  const functions = withWaitingRouteMemory(benchFunctions());
  const completed = new Set<string>();
  const listener = await listenForWebhooks(admin, (payload) => {
    if (payload.type === 'task.complete' && payload.data.task_id) completed.add(payload.data.task_id);
  }, SUBSCRIBED_EVENTS);
  const meter = new Meter();
  try {
    /**
     * One task, as a worker runs it (claim, heartbeats, one report, complete), followed to its
     * webhook before the next starts: each task gets its own stream and delivery invocations, the
     * conservative case the metering phase prices built-in tasks at.
     */
    const runTask = async () => {
      const created = await createAgentTask(admin, agent.slug);
      const claimed = await claim(agent, 0);
      if (claimed?.task.task_id !== created.task_id) throw new Error(`claimed ${claimed?.task.task_id ?? 'nothing'} instead of ${created.task_id}`);
      const calls = leaseCalls(agent, claimed);
      for (let beat = 0; beat < HEARTBEATS_PER_TASK; beat++) await calls.heartbeat();
      await calls.report();
      await calls.complete();
      await waitFor(`the webhook of task ${created.task_id}`, async () => (completed.has(created.task_id) ? true : undefined), WEBHOOK_TIMEOUT_MS, 20);
    };
    // Every handler loaded, and the webhook subscription warm, before the meter starts.
    for (let index = 0; index < 2; index++) await runTask();
    await claim(idleAgent, 0);

    const uninstall = meter.install();
    const counter = countClaimCalls(currentInvocation);
    try {
      progress(`workers: metering ${tasks} custom-agent tasks, each created, claimed, ${HEARTBEATS_PER_TASK} heartbeat(s), one artifact, completed, its webhook delivered`);
      await quiet(meter);
      meter.reset();
      counter.takeAll();
      let errors = 0;
      for (let index = 0; index < tasks; index++) await runTask().catch(() => (errors += 1));
      await quiet(meter);
      const usage = unitUsage(meter.snapshot(), tasks, functions);
      const failedConditionalWrites: Record<string, number> = {};
      for (const calls of counter.takeAll()) for (const [command, count] of Object.entries(calls.failedConditionalWrites)) failedConditionalWrites[command] = (failedConditionalWrites[command] ?? 0) + count / tasks;
      const perTask: WorkersReport['perTask'] = { units: tasks, errors, heartbeatsPerTask: HEARTBEATS_PER_TASK, assumption: HEARTBEAT_ASSUMPTION, usage, cost: costOf(usage), failedConditionalWrites };

      progress(`workers: metering ${emptyClaims} empty claims without a wait`);
      const empty = await meterClaims(meter, counter, emptyClaims, 1, () => claim(idleAgent, 0), 0);
      progress(`workers: metering ${LONG_WAITS_AT_ONCE} empty ${LONGEST_WAIT_SECONDS} s waits, at once`);
      const waiting = await meterClaims(meter, counter, LONG_WAITS_AT_ONCE, LONG_WAITS_AT_ONCE, () => claim(idleAgent, LONGEST_WAIT_SECONDS), LONGEST_WAIT_SECONDS);
      const lookTimes = lookTimesMs(LONGEST_WAIT_SECONDS);
      return { perTask, longPoll: { waiting, empty, modelLooks: lookTimes.length, lookTimesMs: lookTimes.map(Math.round) } };
    } finally {
      counter.uninstall();
      uninstall();
    }
  } finally {
    await listener.close();
  }
}

/** Meters `count` empty claims, `atOnce` at a time: the claim function's usage per claim, its looks, its wall time. */
async function meterClaims(meter: Meter, counter: ReturnType<typeof countClaimCalls>, count: number, atOnce: number, claimOnce: () => Promise<unknown>, waitSeconds: number): Promise<MeasuredClaim> {
  await quiet(meter);
  meter.reset();
  counter.takeAll();
  const walls: number[] = [];
  for (let done = 0; done < count; done += atOnce) {
    await Promise.all(
      Array.from({ length: Math.min(atOnce, count - done) }, async () => {
        const started = performance.now();
        if ((await claimOnce()) !== undefined) throw new Error('an idle agent\'s claim got a task');
        walls.push(performance.now() - started);
      }),
    );
  }
  await quiet(meter);
  return measuredClaim(meter.snapshot(), counter.take(CLAIM_FILE), count, walls, waitSeconds);
}

function measuredClaim(snapshot: MeterSnapshot, calls: ClaimCalls, count: number, walls: number[], waitSeconds: number): MeasuredClaim {
  const fn = snapshot.functions[CLAIM_FILE];
  if (!fn || fn.invocations !== count) throw new Error(`expected ${count} claim invocations in the window, metered ${fn?.invocations ?? 0}`);
  const per = (value: number) => round2(value / count);
  return { claims: count, waitSeconds, billedMs: per(fn.billedMs), readUnits: per(fn.readUnits), lookReadUnitsReported: per(calls.lookReadUnitsReported), writeUnits: per(fn.writeUnits), logBytes: per(fn.logBytes), looks: per(calls.looks), wallMs: per(walls.reduce((sum, wall) => sum + wall, 0)) };
}
