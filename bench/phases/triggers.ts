import { UpdateCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { triggerRepository } from '#shared/adapters/dynamodb/trigger-repository';
import type { ServiceEvent } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import { isTerminal } from '#shared/domain/task-state';
import { eventRunId, scheduledRunId, type Trigger, type TriggerSource, type TriggerTask } from '#shared/domain/trigger';
import { eventTriggerConsumer, scheduleTargets } from '#shared/config/topology';
import { deployAgent } from '#shared/services/agents';
import { createTask as createTaskInProcess } from '#shared/services/task-creation';
import { listTasks } from '#shared/services/tasks';
import { fireEventTriggers } from '#shared/services/event-trigger-runs';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { apiClient, waitFor } from '../api-client';
import { startBenchEngines, startBenchRuntime } from '../bench-runtime';
import type { BenchConfig } from '../config';
import { costOf, unitUsage } from '../cost';
import { benchFunctions } from '../functions';
import { idleCloseComparison, IDLE_CLOSE_ASSUMPTIONS } from '../idle-close-cost';
import { measureInboundMailStall } from '../inbound-mail-stall';
import { Meter, quiet, type MeterSnapshot } from '../metering';
import { progress } from '../progress';
import type { HopCost, TriggersReport } from '../results';
import { summarize } from '../stats';
import { createTask, deployAgents, FULL_AUDIT, workloadOf } from '../workload';

/** What the local stand-ins poll at (lib/local/schedule-runner.ts, runtime.ts): not part of AWS's path. */
const SCHEDULE_RUNNER_POLL_MS = 500;
const STREAM_POLL_MS = 100;
const FIRE_FILE = scheduleTargets['trigger-fire'];
const IDLE_CLOSE_FILE = scheduleTargets['session-idle-close'];
const CONSUMER_FILE = eventTriggerConsumer.handler;
/**
 * Fires of the 200 triggers in flight at once. On AWS each is its own Lambda invocation with its
 * own connections; here they share one process and one DynamoDB Local, whose connections time out
 * past a few dozen at once. 25 is what the local schedule runner takes per round (its batch).
 */
const FIRES_IN_FLIGHT = 25;
/**
 * The bench invokes these functions itself under another name for the same file ('./…'): the
 * loader observes each name apart, so the meter tells the bench's invocations from the runtime's
 * own (the stream consumer also runs for the triggered tasks' artifacts).
 */
const alias = (file: string) => `./${file}`;

const ms = (iso: string) => Date.parse(iso);

/**
 * Triggers and sessions' idle close. Latencies: a schedule's fire (the `trigger-fire` target
 * invoked in-process as EventBridge would invoke it, so the local runner's poll is not counted) to
 * its task's `created_at`, and an `artifact.emitted` event's `created_at` to the triggered task's
 * `created_at` through the real stream consumer, beside the same without the stream (floor), each
 * at 1 and 200 triggers of the tenant. Costs: the trigger functions' invocations metered alone, and
 * the idle close's schedule target metered in both of its branches, priced against a sweep.
 */
export async function run(config: BenchConfig): Promise<TriggersReport> {
  const engines = await startBenchEngines();
  const runtime = await startBenchRuntime({ engines, name: 'bench-triggers', workers: true, workerConcurrency: config.workerConcurrency });
  const api = apiClient(runtime.baseUrl, runtime.key);
  const functions = benchFunctions();
  const samples = config.triggerSamples;
  const rounds = config.quick ? 1 : 3;
  try {
    await deployAgents(api);
    const fire = await loadHandler(alias(FIRE_FILE));
    const consumer = await loadHandler(alias(CONSUMER_FILE));
    const idleClose = await loadHandler(alias(IDLE_CLOSE_FILE));
    const audit = workloadOf(FULL_AUDIT);
    const auditTask: TriggerTask = { agent: audit.agent, task_type: audit.taskType, input: audit.input, priority: 'normal' };
    const scheduleSource: TriggerSource = { type: 'schedule', cron: '* * * * *', timezone: 'UTC', overlap: 'allow' };

    // --- Schedule fire → task created -------------------------------------------------------
    /** Fires the trigger for `time` as EventBridge would, and returns [to created_at, to handler returned]. */
    const fireOnce = async (trigger: Trigger, time: Date): Promise<[number, number]> => {
      const started = Date.now();
      await fire({ tenant_id: trigger.tenant_id, trigger_id: trigger.trigger_id, scheduled_time: time.toISOString() }, lambdaContext('trigger-fire', 30));
      const returned = Date.now();
      const run = await triggerRepository.getRun(trigger.tenant_id, trigger.trigger_id, scheduledRunId(trigger.trigger_id, time));
      if (run?.outcome !== 'task_created' || !run.task_id) throw new Error(`trigger ${trigger.trigger_id} at ${time.toISOString()}: ${run?.outcome ?? 'no run'} ${run?.reason ?? ''}`);
      const task = await taskRepository.load(trigger.tenant_id, run.task_id);
      return [ms(task!.created_at) - started, returned - started];
    };
    /** The floor: the same task created in-process with no trigger (no trigger read, run claim or advance). */
    const plainOnce = async (tenantId: string): Promise<number> => {
      const started = Date.now();
      const task = await createTaskInProcess(tenantId, { shape: 'slug', agentReference: auditTask.agent, task_type: auditTask.task_type, input: auditTask.input, priority: auditTask.priority, trigger: { type: 'api' } });
      return ms(task.created_at) - started;
    };
    const nextMinute = () => new Date(Math.ceil((Date.now() + 1) / 60_000) * 60_000);
    const schedule: TriggersReport['schedule'] = [];
    {
      const [one] = await scheduleTriggers('bench-sched-1', 1, scheduleSource, auditTask);
      progress(`triggers: schedule fire → task, 1 trigger, ${samples} fires`);
      const base = nextMinute();
      await fireOnce(one, base); // warm-up: handler and clients loaded
      const created: number[] = [];
      const returned: number[] = [];
      for (let index = 1; index <= samples; index++) {
        const [toCreated, toReturn] = await fireOnce(one, new Date(base.getTime() + index * 60_000));
        created.push(toCreated);
        returned.push(toReturn);
      }
      const floor: number[] = [];
      for (let index = 0; index < samples; index++) floor.push(await plainOnce(one.tenant_id));
      schedule.push({ triggers: 1, firesAtOnce: 1, created: summarize(created), handlerReturned: summarize(returned), floor: summarize(floor) });
      await tasksSettled('bench-sched-1');
    }
    {
      const many = await scheduleTriggers('bench-sched-200', 200, scheduleSource, auditTask);
      progress(`triggers: schedule fire → task, 200 triggers firing at the same time, ${rounds} round(s)`);
      const base = nextMinute();
      const created: number[] = [];
      const returned: number[] = [];
      for (let round = 0; round <= rounds; round++) {
        const time = new Date(base.getTime() + round * 60_000);
        const results = await inPool(many, FIRES_IN_FLIGHT, (trigger) => fireOnce(trigger, time));
        // Round 0 is the warm-up of the 200 (first reads of their items); the rest are measured.
        if (round > 0) for (const [toCreated, toReturn] of results) created.push(toCreated), returned.push(toReturn);
        await tasksSettled('bench-sched-200');
      }
      const floor: number[] = [];
      for (let round = 0; round < rounds; round++) {
        floor.push(...(await inPool(many, FIRES_IN_FLIGHT, () => plainOnce(many[0].tenant_id))));
        await tasksSettled('bench-sched-200');
      }
      schedule.push({ triggers: 200, firesAtOnce: FIRES_IN_FLIGHT, created: summarize(created), handlerReturned: summarize(returned), floor: summarize(floor) });
    }

    // --- Artifact emitted → triggered task created ---------------------------------------------
    const leads = workloadOf('sales.find_leads');
    const enrichTask: TriggerTask = { agent: 'sales', task_type: 'sales.enrich_leads', input: {}, input_mapping: { leads: '/artifact/data/leads' }, priority: 'normal' };
    const [matching] = await createTriggers(runtime.tenantId, 1, () => ({ type: 'event', artifact_type: 'sales.lead_list', agent: 'sales' }), enrichTask);
    const event: TriggersReport['event'] = [];
    /** One source task whose artifact fires the trigger through the stream, then the same event again without it. */
    const eventSample = async (timeoutMs = 30_000): Promise<[number, number, ServiceEvent]> => {
      const source = await createTask(api, leads);
      const emitted = await waitFor('the artifact.emitted event', async () => {
        const page = await api.call<{ events: (ServiceEvent & { data: Record<string, unknown> })[] }>('GET', `/events?task_id=${source}&type=artifact.emitted`);
        return page.events[0];
      }, 30_000, 50);
      const artifactId = emitted.data.artifact_id as string;
      const runId = eventRunId(matching.trigger_id, artifactId, new Date(emitted.created_at));
      const viaStream = await waitFor('the triggered task', async () => {
        const found = await triggerRepository.getRun(runtime.tenantId, matching.trigger_id, runId);
        return found?.task_id;
      }, timeoutMs, 50);
      const triggered = await taskRepository.load(runtime.tenantId, viaStream);
      const streamed = ms(triggered!.created_at) - ms(emitted.created_at);
      // The floor: the same work called in-process the moment the event is written (a new created_at is a new run).
      const now = Date.now();
      const again: ServiceEvent = { event_id: newId('evt', now), type: 'artifact.emitted', created_at: new Date(now).toISOString(), tenant_id: runtime.tenantId, task_id: source, agent: 'sales', data: emitted.data };
      const runs = await fireEventTriggers(again);
      const direct = runs.find((entry) => entry.trigger_id === matching.trigger_id)?.task_id;
      if (!direct) throw new Error('the in-process floor started no task');
      const floorTask = await taskRepository.load(runtime.tenantId, direct);
      return [streamed, ms(floorTask!.created_at) - now, again];
    };
    let sampleEvent: ServiceEvent | undefined;
    for (const triggers of [1, 200]) {
      if (triggers === 200) await createTriggers(runtime.tenantId, 199, (index) => ({ type: 'event', artifact_type: `bench.unmatched_${index}`, agent: 'sales' }), enrichTask);
      progress(`triggers: artifact → triggered task, ${triggers} event trigger(s) (1 matching), ${samples} artifacts`);
      // Warm-up, and the stream's backlog drained: the schedule series' tasks emitted artifacts too,
      // which the consumer takes in order before this one.
      await eventSample(300_000);
      const streamed: number[] = [];
      const floor: number[] = [];
      for (let index = 0; index < samples; index++) {
        const [viaStream, direct, emitted] = await eventSample();
        streamed.push(viaStream);
        floor.push(direct);
        sampleEvent = emitted;
      }
      event.push({ triggers, matching: 1, viaStream: summarize(streamed), floor: summarize(floor) });
      await tasksSettled(runtime.tenantId);
    }

    // --- Metered: each trigger function alone, and the idle close's two branches ----------------
    const metered = config.meteredTasks;
    const meter = new Meter();
    const uninstall = meter.install();
    const hops: TriggersReport['hops'] = {} as TriggersReport['hops'];
    const window = async (work: () => Promise<void>, file: string, units: number): Promise<HopCost> => {
      await quiet(meter);
      meter.reset();
      await work();
      await quiet(meter);
      return hopCost(meter.snapshot(), file, units, functions);
    };
    let idleFires: TriggersReport['idleClose']['fires'];
    let sessionItemBytes = 0;
    try {
      progress(`triggers: metering ${metered} schedule fires, ${metered} event-trigger invocations at 1/200 triggers, ${metered} idle-close fires of each kind`);
      // A default trigger (overlap: skip): its previous task has ended by each fire, so each starts a task.
      const [skipping] = await scheduleTriggers('bench-sched-meter', 1, { ...scheduleSource, overlap: 'skip' }, auditTask);
      const base = nextMinute();
      hops.schedule = await window(async () => {
        for (let index = 0; index < metered; index++) {
          const time = new Date(base.getTime() + index * 60_000);
          await fire({ tenant_id: skipping.tenant_id, trigger_id: skipping.trigger_id, scheduled_time: time.toISOString() }, lambdaContext('trigger-fire', 30));
          const run = await triggerRepository.getRun(skipping.tenant_id, skipping.trigger_id, scheduledRunId(skipping.trigger_id, time));
          if (run?.task_id) await waitFor('the triggered task to end', async () => ((await taskRepository.load(skipping.tenant_id, run.task_id!))?.status && isTerminal((await taskRepository.load(skipping.tenant_id, run.task_id!))!.status) ? true : undefined), 60_000, 50);
        }
      }, FIRE_FILE, metered);
      // One stream record per invocation (the conservative case; a batch takes up to 25).
      const invokeConsumer = async (artifactType: string | undefined) => {
        const now = Date.now();
        const base = sampleEvent!;
        const item: ServiceEvent = { ...base, event_id: newId('evt', now), created_at: new Date(now).toISOString(), data: artifactType ? { ...base.data, type: artifactType } : base.data };
        const record = { eventName: 'INSERT', dynamodb: { NewImage: marshall({ pk: `T#${item.tenant_id}`, sk: `EVT#${item.event_id}`, entity: 'event', ...item }, { removeUndefinedValues: true }) } };
        await consumer({ Records: [record] }, lambdaContext(eventTriggerConsumer.name, eventTriggerConsumer.timeoutSeconds));
      };
      hops.eventAt200 = await window(async () => {
        for (let index = 0; index < metered; index++) await invokeConsumer(undefined);
      }, CONSUMER_FILE, metered);
      hops.eventNoMatchAt200 = await window(async () => {
        for (let index = 0; index < metered; index++) await invokeConsumer('bench.nothing_waits_for_this');
      }, CONSUMER_FILE, metered);
      // Back to one trigger: the 199 others deleted.
      for (const trigger of await triggerRepository.listAll(runtime.tenantId)) if (trigger.trigger_id !== matching.trigger_id) await triggerRepository.delete(runtime.tenantId, trigger.trigger_id);
      hops.eventAt1 = await window(async () => {
        for (let index = 0; index < metered; index++) await invokeConsumer(undefined);
      }, CONSUMER_FILE, metered);
      hops.eventNoMatchAt1 = await window(async () => {
        for (let index = 0; index < metered; index++) await invokeConsumer('bench.nothing_waits_for_this');
      }, CONSUMER_FILE, metered);

      // Idle close: a fire that finds activity (schedules the next deadline) and one that closes.
      const sessions = async (count: number, message: boolean) => {
        const ids: string[] = [];
        for (let index = 0; index < count; index++) {
          const session = await api.call<{ session_id: string }>('POST', '/sessions', { body: { agent: 'ai-readiness', title: `bench session ${index}` } });
          if (message) await api.call('POST', `/sessions/${session.session_id}/messages`, { body: { content: 'Still here.' } });
          ids.push(session.session_id);
        }
        return ids;
      };
      const active = await sessions(metered, true);
      const idle = await sessions(metered, false);
      const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.session(runtime.tenantId, idle[0]) }));
      sessionItemBytes = Buffer.byteLength(JSON.stringify(Item ?? {}));
      // Idle for two days (the default timeout is one): the next fire closes them.
      const longAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
      for (const id of idle) {
        await documentClient().send(new UpdateCommand({ TableName: tableName(), Key: keys.session(runtime.tenantId, id), UpdateExpression: 'SET last_activity_at = :at', ExpressionAttributeValues: { ':at': longAgo } }));
      }
      const invokeIdle = (id: string) => idleClose({ tenant_id: runtime.tenantId, session_id: id }, lambdaContext('session-idle-close', 30));
      const rescheduled = await window(async () => {
        for (const id of active) await invokeIdle(id);
      }, IDLE_CLOSE_FILE, metered);
      const closed = await window(async () => {
        for (const id of idle) await invokeIdle(id);
      }, IDLE_CLOSE_FILE, metered);
      const stillOpen = await api.call<{ status: string }>('GET', `/sessions/${idle[0]}`);
      if (stillOpen.status !== 'closed') throw new Error(`an idle session's fire did not close it (status ${stillOpen.status})`);
      idleFires = { rescheduled, closed };
    } finally {
      uninstall();
    }

    // --- /health while the mail arrives (last: its triggered tasks would weigh on the figures above) ---
    progress('triggers: /health while a 470 KiB <script> mail arrives');
    const mailTrigger = await api.call<{ source: { address: string } }>('POST', '/triggers', { body: { name: 'bench mail', source: { type: 'mail' }, task: auditTask } });
    const inboundMail = await measureInboundMailStall(runtime, mailTrigger.source.address, config.quick ? 1 : 3);
    return {
      inboundMail,
      samples,
      rounds,
      schedulePollMs: SCHEDULE_RUNNER_POLL_MS,
      streamPollMs: STREAM_POLL_MS,
      schedule,
      event,
      hops,
      idleClose: { fires: idleFires, sessionItemBytes, comparison: idleCloseComparison(idleFires, IDLE_CLOSE_ASSUMPTIONS), withoutActivityWrites: idleCloseComparison(idleFires, { ...IDLE_CLOSE_ASSUMPTIONS, activityUpdatesPerSession: 0 }) },
    };
  } finally {
    await runtime.stop();
    await engines.stop();
  }
}

/** Runs `work` over `items`, at most `limit` at a time; results in the items' order. */
async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, () => lane()));
  return results;
}

function triggerOf(tenantId: string, index: number, source: TriggerSource, task: TriggerTask): Trigger {
  const now = new Date();
  return { trigger_id: newId('trg', now.getTime()), tenant_id: tenantId, name: `bench trigger ${index}`, source, task, enabled: true, created_at: now.toISOString(), updated_at: now.toISOString() };
}

/**
 * Triggers stored directly, not through POST /triggers: a schedule trigger made this way has no
 * local schedule, so only the bench fires it. They still count against the tenant's cap, which the
 * bench raises for the 200 the issue asks for (GATEHOUSE_MAX_TRIGGERS_PER_TENANT, runtime-environment.ts).
 */
async function createTriggers(tenantId: string, count: number, source: (index: number) => TriggerSource, task: TriggerTask): Promise<Trigger[]> {
  const made: Trigger[] = [];
  for (let index = 0; index < count; index++) {
    const trigger = triggerOf(tenantId, index, source(index), task);
    await triggerRepository.create(trigger);
    made.push(trigger);
  }
  return made;
}

async function scheduleTriggers(tenantId: string, count: number, source: TriggerSource, task: TriggerTask): Promise<Trigger[]> {
  await deployAgent(tenantId, { agent_slug: task.agent });
  return createTriggers(tenantId, count, () => source, task);
}

/** Waits until the tenants have no queued or running task: the triggered tasks' work is done before the next series. */
async function tasksSettled(...tenants: string[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const tenant of tenants) {
    for (const status of ['queued', 'running'] as const) {
      await waitFor(`no ${status} task of ${tenant}`, async () => ((await listTasks(tenant, { status, limit: 1 })).tasks.length === 0 ? true : undefined), 180_000, 200).catch(() => undefined);
    }
  }
}

/** One function's metered usage per unit, priced; the other functions of the window are left out. */
function hopCost(snapshot: MeterSnapshot, file: string, units: number, functions: ReturnType<typeof benchFunctions>): HopCost {
  const meter = snapshot.functions[alias(file)];
  if (!meter) throw new Error(`${file} was not invoked by the bench in its metered window.`);
  const alone: MeterSnapshot = { ...snapshot, functions: { [file]: meter }, eventSourceSqsRequests: 0 };
  const usage = unitUsage(alone, units, functions);
  return { units, failed: meter.failed, usage, cost: costOf(usage) };
}

