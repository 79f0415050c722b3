import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { dispatchDetectorRun } from '#shared/adapters/sqs/scan-dispatcher';
import { taskDispatcher } from '#shared/adapters/sqs/task-dispatcher';
import { dispatchToolCall } from '#shared/adapters/sqs/tool-call-dispatcher';
import { getIntegerFromEnv } from '#shared/config/env';
import { scanDetectorWorker, taskWorker } from '#shared/config/topology';
import { systemClock, type Clock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import {
  agentTimeoutError,
  DEFAULT_REDISPATCH_AFTER_SECONDS,
  DEFAULT_TASK_DEADLINE_SECONDS,
  taskVerdict,
  toolCallNeedsRedispatch,
  type SweepPolicy,
  type SweepReport,
} from '#shared/domain/stuck-work';
import type { Task } from '#shared/domain/task';
import { leaseVerdict, lostLeasesError } from '#shared/domain/task-lease';
import { workerTaskRepository } from '#shared/adapters/dynamodb/worker-task-repository';
import { releaseSlot } from '#shared/services/worker-leases';
import { runKeyBindingJobs } from '#shared/services/key-binding-jobs';
import { detectorRunNeedsRedrive } from '#shared/scans/detector-run-redrive';
import type { Scan } from '#shared/scans/scan';

/** Seconds a worker may outlive its function timeout before the sweeper takes it for dead. */
const WORKER_GRACE_SECONDS = 60;

/**
 * The thresholds, from the environment (docs/resilience.md lists them), defaulting to: 15 minutes
 * of running, 5 minutes for a lost dispatch, and each worker's timeout plus a minute for a lost worker.
 */
export function sweepPolicyFromEnv(): SweepPolicy {
  return {
    taskDeadlineSeconds: getIntegerFromEnv('SWEEPER_TASK_DEADLINE_SECONDS', DEFAULT_TASK_DEADLINE_SECONDS),
    redispatchAfterSeconds: getIntegerFromEnv('SWEEPER_REDISPATCH_AFTER_SECONDS', DEFAULT_REDISPATCH_AFTER_SECONDS),
    stalledTaskSeconds: getIntegerFromEnv('SWEEPER_STALLED_TASK_SECONDS', taskWorker.timeoutSeconds + WORKER_GRACE_SECONDS),
    stalledDetectorRunSeconds: getIntegerFromEnv('SWEEPER_STALLED_DETECTOR_RUN_SECONDS', scanDetectorWorker.timeoutSeconds + WORKER_GRACE_SECONDS),
  };
}

/**
 * The policy after a restart of the local runtime, whose queues lived in memory: every message
 * in flight is gone, so everything waiting or running is sent again at once. Deadlines still hold.
 */
export function everythingLostPolicy(policy: SweepPolicy): SweepPolicy {
  return { ...policy, redispatchAfterSeconds: 0, stalledTaskSeconds: 0, stalledDetectorRunSeconds: 0 };
}

export interface SweepOptions {
  policy?: SweepPolicy;
  clock?: Clock;
  /** Stop acting (still counting) once this time has passed: the Lambda's timeout minus a margin. */
  actUntil?: Date;
  log?: (entry: Record<string, unknown>) => void;
}

/** A sweep in which some items could not be handled; the rest were, and the next sweep retries these. */
export class SweepIncomplete extends Error {
  constructor(
    public readonly report: SweepReport,
    public readonly failures: unknown[],
  ) {
    super(`The sweep could not handle ${failures.length} item(s): ${failures.slice(0, 3).map(String).join('; ')}`);
    this.name = 'SweepIncomplete';
  }
}

/**
 * One sweep over the sparse active indexes (never a table Scan): applies the pending jobs that cap
 * or revoke the API keys of people demoted or removed, fails tasks past their deadline
 * with `agent_timeout`, sends again tasks, detector runs and approved actions whose message or
 * worker was lost, and counts the approvals waiting for a human. Every change is a conditional
 * write on the state the sweep saw, so a worker finishing at the same moment, or an overlapping
 * sweep, and this one never both win; sending a message twice is safe (workers are idempotent).
 */
export async function sweepStuckWork(options: SweepOptions = {}): Promise<SweepReport> {
  const policy = options.policy ?? sweepPolicyFromEnv();
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => undefined);
  const report: SweepReport = { tasksTimedOut: 0, leasesLost: 0, tasksRedispatched: 0, detectorRunsRedriven: 0, toolCallsRedispatched: 0, approvalsPending: 0, apiKeysCapped: 0, apiKeysRevoked: 0 };
  const failures: unknown[] = [];
  const mayAct = () => !options.actUntil || clock.now() < options.actUntil;
  const attempt = async (what: Record<string, unknown>, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      failures.push(error);
      log({ level: 'WARN', message: 'sweeper could not handle an item; the next sweep retries it', ...what, error: String(error) });
    }
  };

  // First: the keys of people demoted or removed (their power is already refused at authentication).
  const keyJobs = await runKeyBindingJobs({
    clock,
    mayAct,
    onFailure: (job, error) => {
      failures.push(error);
      log({ level: 'WARN', message: 'sweeper could not apply a key-binding job; the next sweep retries it', tenant_id: job.tenant_id, job_id: job.job_id, error: String(error) });
    },
  });
  report.apiKeysCapped = keyJobs.keysCapped;
  report.apiKeysRevoked = keyJobs.keysRevoked;
  for await (const task of taskRepository.activeTaskSnapshots()) {
    if (!mayAct()) break;
    await attempt({ tenant_id: task.tenant_id, task_id: task.task_id }, () => sweepTask(task, policy, clock, report, log));
  }
  for await (const scan of scanRepository.activeScanSnapshots()) {
    if (!mayAct()) break;
    await attempt({ tenant_id: scan.tenant_id, scan_id: scan.scan_id }, () => sweepScan(scan, policy, clock, report));
  }
  for await (const approval of approvalRepository.pendingToolCallSnapshots()) {
    if (!mayAct()) break;
    if (!toolCallNeedsRedispatch(approval, clock.now(), policy)) continue;
    await attempt({ tenant_id: approval.tenant_id, approval_id: approval.approval_id }, async () => {
      await dispatchToolCall(approval);
      report.toolCallsRedispatched++;
    });
  }
  report.approvalsPending = await approvalRepository.countPending();

  if (failures.length > 0) throw new SweepIncomplete(report, failures);
  return report;
}

async function sweepTask(task: Task, policy: SweepPolicy, clock: Clock, report: SweepReport, log: NonNullable<SweepOptions['log']>): Promise<void> {
  if (task.runs_on === 'worker') return sweepWorkerTask(task, clock, report, log);
  const now = clock.now();
  const verdict = taskVerdict(task, now, policy);
  if (verdict.action === 'time_out') {
    const error = agentTimeoutError(verdict.deadlineSeconds);
    // The transaction writes task.failed only if the task is still in the run judged here.
    const outcome = await taskRepository.timeOut(task, error, taskEvent('task.failed', task, { error }, clock));
    if (outcome === 'applied') {
      report.tasksTimedOut++;
      log({ level: 'INFO', message: 'task failed with agent_timeout', tenant_id: task.tenant_id, task_id: task.task_id, deadline_seconds: verdict.deadlineSeconds });
    }
  } else if (verdict.action === 'redispatch') {
    // Recorded first, so of two overlapping sweeps one sends. If the send then fails, the sweep
    // reports it and a later sweep sends again (the task stays in the index until it ends).
    if (!(await taskRepository.markRedispatched(task, now.toISOString()))) return;
    await taskDispatcher.dispatch(task);
    report.tasksRedispatched++;
    log({ level: 'INFO', message: 'task sent to the workers again', tenant_id: task.tenant_id, task_id: task.task_id, status: task.status, reason: verdict.reason });
  }
}

/**
 * A custom agent's task has no deadline and no message to lose: its worker's lease is what can
 * run out. Then it waits in the queue again, or fails `agent_timeout` at the third lost lease;
 * each write holds only for the lease seen here, so a heartbeat that came meanwhile wins.
 */
async function sweepWorkerTask(task: Task, clock: Clock, report: SweepReport, log: NonNullable<SweepOptions['log']>): Promise<void> {
  const verdict = leaseVerdict(task, clock.now());
  if (verdict.action === 'none') return;
  let held: boolean;
  if (verdict.action === 'requeue') {
    held = await workerTaskRepository.requeueExpired(task, verdict.lostLeases, taskEvent('task.requeued', task, { reason: 'lease_expired', lost_leases: verdict.lostLeases }, clock));
  } else {
    const error = lostLeasesError(verdict.lostLeases);
    held = await workerTaskRepository.timeOutExpired(task, verdict.lostLeases, error, taskEvent('task.failed', task, { error }, clock));
    if (held) report.tasksTimedOut++;
  }
  if (!held) return;
  report.leasesLost++;
  await releaseSlot(task.tenant_id, task.lease_id);
  log({ level: 'INFO', message: verdict.action === 'requeue' ? "a worker's lease ran out; the task waits for a claim again" : "a worker's lease ran out for the last time; the task failed with agent_timeout", tenant_id: task.tenant_id, task_id: task.task_id, lost_leases: verdict.lostLeases });
}

async function sweepScan(scan: Scan, policy: SweepPolicy, clock: Clock, report: SweepReport): Promise<void> {
  for (const detector of scan.detectors) {
    const run = scan.runs[detector];
    const now = clock.now();
    if (!detectorRunNeedsRedrive(scan, run, now, policy)) continue;
    if (!(await scanRepository.markRedriven(scan, detector, run, now.toISOString()))) continue;
    await dispatchDetectorRun({ tenant_id: scan.tenant_id, scan_id: scan.scan_id, detector });
    report.detectorRunsRedriven++;
  }
}
