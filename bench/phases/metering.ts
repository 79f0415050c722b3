import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { isFinished } from '#shared/scans/scan';
import { startTestSite } from '../../test/support/test-site-server';
import { apiClient, waitFor, type ApiClient } from '../api-client';
import { startBenchEngines, startBenchRuntime } from '../bench-runtime';
import type { BenchConfig } from '../config';
import { costOf, unitUsage } from '../cost';
import { benchFunctions } from '../functions';
import { Meter, quiet, type MeterSnapshot } from '../metering';
import { progress } from '../progress';
import type { MeteredScenario } from '../results';
import { createProject, createScan, createTask, deployAgents, largeInputWorkload, taskTypeWorkloads, type TaskTypeWorkload } from '../workload';
import { listenForWebhooks, type WebhookPayload } from '../webhook-listener';

/**
 * The events a client of a task subscribes to: the outcome, and the approvals it must answer.
 * Their deliveries are part of what a task costs ("all-in").
 */
const SUBSCRIBED_EVENTS = ['task.complete', 'task.failed', 'approval.requested'];
/** The runtime is quiet once no function has been invoked for this long (pollers run every 100 ms). */
const TASK_TIMEOUT_MS = 60_000;

/**
 * Meters, per task type of the catalog and per scan, everything AWS would bill: the tasks run one
 * after another (so each gets its own invocations: the conservative case; under load consumers
 * batch up to five messages), approvals are approved as a client would, and the client hears of
 * the outcome by webhook. The figures are the window's totals divided by the tasks run.
 */
export async function run(config: BenchConfig): Promise<MeteredScenario[]> {
  const engines = await startBenchEngines();
  const site = await startTestSite();
  const runtime = await startBenchRuntime({ engines, name: 'bench-metering', workers: true, workerConcurrency: config.workerConcurrency });
  const api = apiClient(runtime.baseUrl, runtime.key);
  const meter = new Meter();
  const outcomes = new TaskOutcomes();
  const onDelivery = (payload: WebhookPayload) => {
    const taskId = payload.data.task_id;
    if (payload.type === 'approval.requested' && payload.data.approval_id) {
      api.call('POST', `/approvals/${payload.data.approval_id}/resolve`, { body: { decision: 'approved' }, expect: 200 }).catch((error: unknown) => progress(`metering: approving failed: ${String(error)}`));
    } else if (taskId) {
      outcomes.settle(taskId, payload.type);
    }
  };
  const listener = await listenForWebhooks(api, onDelivery, SUBSCRIBED_EVENTS);
  const functions = benchFunctions();
  const scenarios: MeteredScenario[] = [];
  try {
    await deployAgents(api);
    const projectId = await createProject(api, site.url);
    // One untimed round first: every handler loads before the meter starts (cold starts are not per task).
    for (const workload of taskTypeWorkloads()) await runTask(api, workload, outcomes);
    await scanToEnd(api, runtime.tenantId, projectId);
    await quiet(meter);

    const uninstall = meter.install();
    try {
      for (const workload of [...taskTypeWorkloads(), largeInputWorkload()]) {
        const name = workload.label ?? workload.taskType;
        progress(`metering: ${config.meteredTasks} × ${name}`);
        await quiet(meter);
        meter.reset();
        let errors = 0;
        for (let index = 0; index < config.meteredTasks; index++) {
          if ((await runTask(api, workload, outcomes).catch(() => 'timeout')) !== 'task.complete') errors += 1;
        }
        await quiet(meter);
        scenarios.push(scenario(name, 'task', config.meteredTasks, errors, meter.snapshot(), functions));
      }
      progress(`metering: ${config.meteredScans} × scan of the test site`);
      await quiet(meter);
      meter.reset();
      let errors = 0;
      for (let index = 0; index < config.meteredScans; index++) {
        if ((await scanToEnd(api, runtime.tenantId, projectId)) !== 'completed') errors += 1;
      }
      await quiet(meter);
      scenarios.push(scenario('scan', 'scan', config.meteredScans, errors, meter.snapshot(), functions));
    } finally {
      uninstall();
    }
  } finally {
    await listener.close();
    await runtime.stop();
    await site.close();
    await engines.stop();
  }
  return scenarios;
}

function scenario(name: string, kind: 'task' | 'scan', units: number, errors: number, snapshot: MeterSnapshot, functions: ReturnType<typeof benchFunctions>): MeteredScenario {
  const usage = unitUsage(snapshot, units, functions);
  const { schedulesCreated, schedulesDeleted, emptyReceives, transactions, transactionUnitsPriced, transactionUnitsReportedLocally, localOnlyReadUnits, localOnlyWriteUnits } = snapshot;
  return {
    name,
    kind,
    units,
    errors,
    usage,
    cost: costOf(usage),
    raw: { schedulesCreated, schedulesDeleted, emptyReceives, transactions, transactionUnitsPriced, transactionUnitsReportedLocally, localOnlyReadUnits, localOnlyWriteUnits },
  };
}

/** Outcomes of tasks as their webhooks arrive, whether or not someone waits for them yet. */
class TaskOutcomes {
  private readonly arrived = new Map<string, string>();
  private readonly waiters = new Map<string, (type: string) => void>();

  settle(taskId: string, type: string): void {
    const waiter = this.waiters.get(taskId);
    if (waiter) waiter(type);
    else this.arrived.set(taskId, type);
  }

  wait(taskId: string, timeoutMs: number): Promise<string> {
    const early = this.arrived.get(taskId);
    if (early) {
      this.arrived.delete(taskId);
      return Promise.resolve(early);
    }
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(taskId);
        reject(new Error(`task ${taskId} did not end within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.set(taskId, (type) => {
        clearTimeout(timer);
        this.waiters.delete(taskId);
        resolve(type);
      });
    });
  }
}

/** Creates a task and resolves with the type of the event that ended it, as delivered by webhook. */
async function runTask(api: ApiClient, workload: TaskTypeWorkload, outcomes: TaskOutcomes): Promise<string> {
  return outcomes.wait(await createTask(api, workload), TASK_TIMEOUT_MS);
}

/**
 * Runs one scan to its end. Scans record no events, so the bench watches the scan's item through
 * the repository from outside any function: the meter does not count those reads.
 */
async function scanToEnd(api: ApiClient, tenantId: string, projectId: string): Promise<string> {
  const scanId = await createScan(api, projectId);
  return waitFor(`scan ${scanId} to end`, async () => {
    const scan = await scanRepository.getScan(tenantId, scanId);
    return scan && isFinished(scan.status) ? scan.status : undefined;
  }, 180_000, 250);
}

