import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { scanEvent } from '#shared/scans/scan-events';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Provisioned } from '#lib/local/provision';
import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { sqsClient } from '#shared/adapters/sqs/client';
import { findAgentBySlug } from '#shared/agents/catalog';
import { systemClock, type Clock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import type { SweepPolicy } from '#shared/domain/stuck-work';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { approvalGate } from '#shared/services/approval-gate';
import { retentionStamps } from '#shared/services/retention-stamps';
import { resolveApproval } from '#shared/services/approvals';
import { runDetector } from '#shared/services/scan-runner';
import { createProject } from '#shared/services/scans';
import { createScan } from '#shared/services/scan-creation';
import { sweepStuckWork } from '#shared/services/stuck-work-sweeper';
import { taskEvents } from '../support/event-reader';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { storedTask } from '../support/task-fixtures';
import { startTestSite, type TestSite } from '../support/test-site-server';

const policy: SweepPolicy = { taskDeadlineSeconds: 900, redispatchAfterSeconds: 300, stalledTaskSeconds: 180, stalledDetectorRunSeconds: 360 };
const runner = new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps });
const inFuture = (seconds: number): Clock => ({ now: () => new Date(Date.now() + seconds * 1000) });

let provisioned: Provisioned;

/** Every message on a queue now (bounded), deleted as read, as parsed bodies. */
async function drain(queue: string): Promise<Record<string, string>[]> {
  const bodies: Record<string, string>[] = [];
  for (let round = 0; round < 50; round++) {
    const { Messages } = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: provisioned.queueUrls[queue], MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!Messages?.length) break;
    for (const message of Messages) {
      bodies.push(JSON.parse(message.Body!));
      await sqsClient().send(new DeleteMessageCommand({ QueueUrl: provisioned.queueUrls[queue], ReceiptHandle: message.ReceiptHandle! }));
    }
  }
  return bodies;
}

async function runningTask(tenant: string) {
  const task = await storedTask(tenant);
  return (await taskRepository.start(task, taskEvent('task.started', task, {}, systemClock)))!;
}

const draftInput = {
  lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' },
  product: { name: 'Gatehouse', value_proposition: 'Keeps a human in the loop.' },
  tone: 'concise',
};

describe('stuck-work sweeper on DynamoDB Local and the SQS emulator', () => {
  let site: TestSite;

  beforeAll(async () => {
    provisioned = await provisionForTest('sweeper');
    site = await startTestSite();
    return () => site.close();
  });

  it('fails a task running past its deadline with agent_timeout, once, with one task.failed', async () => {
    const tenant = uniqueTenant();
    const task = await runningTask(tenant);

    const first = await sweepStuckWork({ policy, clock: inFuture(901) });
    const second = await sweepStuckWork({ policy, clock: inFuture(902) });

    const failed = (await taskRepository.load(tenant, task.task_id))!;
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'agent_timeout' } });
    expect(first.tasksTimedOut).toBeGreaterThanOrEqual(1);
    expect(second.tasksTimedOut).toBe(0);
    const events = await taskEvents(tenant, task.task_id);
    expect(events.filter((event) => event.type === 'task.failed')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'task.failed', data: { error: { code: 'agent_timeout' } } });
  });

  it('leaves a task within its deadline alone', async () => {
    const tenant = uniqueTenant();
    const task = await runningTask(tenant);

    await sweepStuckWork({ policy, clock: inFuture(60) });

    expect((await taskRepository.load(tenant, task.task_id))!.status).toBe('running');
    expect(await runner.run(tenant, task.task_id)).toBe('complete');
  });

  it('lets exactly one of a finishing worker and a timing-out sweeper win, with one terminal event', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const tenant = uniqueTenant();
      const task = await runningTask(tenant);

      const [run] = await Promise.all([runner.run(tenant, task.task_id), sweepStuckWork({ policy, clock: inFuture(901) })]);

      const final = (await taskRepository.load(tenant, task.task_id))!;
      const terminal = (await taskEvents(tenant, task.task_id)).filter((event) => ['task.complete', 'task.failed', 'task.cancelled'].includes(event.type));
      expect(terminal).toHaveLength(1);
      if (final.status === 'complete') {
        expect(run).toBe('complete');
        expect(terminal[0].type).toBe('task.complete');
      } else {
        expect(final).toMatchObject({ status: 'failed', error: { code: 'agent_timeout' } });
        expect(run).toBe('stopped');
        expect(terminal[0].type).toBe('task.failed');
      }
      outcomes.add(final.status);
    }
    expect([...outcomes].every((status) => status === 'complete' || status === 'failed')).toBe(true);
  }, 60_000);

  it('never times out a task parked on an approval, and counts its approval as pending until resolved', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant, { agent: 'sales', task_type: 'sales.draft_email', input: draftInput });
    expect(await runner.run(tenant, task.task_id)).toBe('paused');
    const before = await approvalRepository.countPending();

    const report = await sweepStuckWork({ policy, clock: inFuture(86_400 * 2) });

    expect((await taskRepository.load(tenant, task.task_id))!.status).toBe('awaiting_approval');
    expect(report.approvalsPending).toBe(before);
    expect(before).toBeGreaterThanOrEqual(1);
    const [approval] = (await approvalRepository.list(tenant, { status: 'pending', limit: 10 })).approvals;
    await resolveApproval(tenant, approval.approval_id, { decision: 'denied' }, { type: 'api_key', id: 'key_test' });
    expect(await approvalRepository.countPending()).toBe(before - 1);
  });

  it('re-sends a waiting task whose dispatch was lost, once per period even when two sweeps overlap', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant);
    await drain('tasks-normal');

    await sweepStuckWork({ policy, clock: inFuture(60) });
    expect((await drain('tasks-normal')).filter((body) => body.task_id === task.task_id)).toHaveLength(0);

    await Promise.all([sweepStuckWork({ policy, clock: inFuture(301) }), sweepStuckWork({ policy, clock: inFuture(301) })]);
    expect((await drain('tasks-normal')).filter((body) => body.task_id === task.task_id)).toHaveLength(1);
    expect(await taskRepository.load(tenant, task.task_id)).toMatchObject({ status: 'queued', redispatch_count: 1 });

    // The next re-send waits twice as long.
    await sweepStuckWork({ policy, clock: inFuture(301 + 500) });
    expect((await drain('tasks-normal')).filter((body) => body.task_id === task.task_id)).toHaveLength(0);
    await sweepStuckWork({ policy, clock: inFuture(301 + 601) });
    expect((await drain('tasks-normal')).filter((body) => body.task_id === task.task_id)).toHaveLength(1);

    // The re-sent message runs the task to its end.
    expect(await runner.run(tenant, task.task_id)).toBe('complete');
  });

  it('re-sends a running task whose worker died, and the replay finishes it without duplicates', async () => {
    const tenant = uniqueTenant();
    const task = await runningTask(tenant);
    await drain('tasks-normal');

    await sweepStuckWork({ policy, clock: inFuture(181) });

    expect((await drain('tasks-normal')).filter((body) => body.task_id === task.task_id)).toHaveLength(1);
    expect(await runner.run(tenant, task.task_id)).toBe('complete');
    const done = (await taskRepository.load(tenant, task.task_id))!;
    expect(Object.values(done.artifacts).map((artifact) => artifact.type).sort()).toEqual(['ai_readiness.audit_report', 'ai_readiness.gap_summary']);
    expect((await taskEvents(tenant, task.task_id)).filter((event) => event.type === 'task.complete')).toHaveLength(1);
  });

  it('re-drives a detector run a dead worker left running, and the redelivered run finishes the scan', async () => {
    const tenant = uniqueTenant();
    const project = await createProject(tenant, { name: 'Site', target: site.url, crawl: { max_pages: 2, timeout_seconds: 2 } });
    const scan = await createScan(tenant, project.project_id, { detectors: ['security'] });
    await drain('scan-detectors');
    expect(await scanRepository.startRun(scan, 'security', new Date().toISOString(), scanEvent('scan.started', scan, {}, systemClock))).toBe(true);

    const early = await sweepStuckWork({ policy, clock: inFuture(300) });
    expect(early.detectorRunsRedriven).toBe(0);
    await Promise.all([sweepStuckWork({ policy, clock: inFuture(361) }), sweepStuckWork({ policy, clock: inFuture(361) })]);

    const sent = (await drain('scan-detectors')).filter((body) => body.scan_id === scan.scan_id);
    expect(sent).toEqual([{ tenant_id: tenant, scan_id: scan.scan_id, detector: 'security' }]);
    await runDetector(tenant, scan.scan_id, 'security');
    expect((await scanRepository.getScan(tenant, scan.scan_id))!.status).toBe('completed');
    await sweepStuckWork({ policy, clock: inFuture(10_000) });
    expect((await drain('scan-detectors')).filter((body) => body.scan_id === scan.scan_id)).toEqual([]);
  }, 60_000);

  it('re-sends an approved action the tool proxy never executed', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant, { agent: 'sales', task_type: 'sales.draft_email', input: draftInput });
    expect(await runner.run(tenant, task.task_id)).toBe('paused');
    const [approval] = (await approvalRepository.list(tenant, { status: 'pending', limit: 10 })).approvals;
    await resolveApproval(tenant, approval.approval_id, { decision: 'approved' }, { type: 'api_key', id: 'key_test' });
    await drain('tool-calls');

    await sweepStuckWork({ policy, clock: inFuture(301) });

    expect((await drain('tool-calls')).filter((body) => body.approval_id === approval.approval_id)).toEqual([{ tenant_id: tenant, approval_id: approval.approval_id }]);
  });
});
