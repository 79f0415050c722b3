import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '#shared/domain/clock';
import { sweepStuckWork } from '#shared/services/stuck-work-sweeper';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { deployCustomAgent } from '../support/custom-agent';

let runtime: TestRuntime;
let admin: ReturnType<typeof apiClient>;
let worker: ReturnType<typeof apiClient>;

/** A sweep as it will run `seconds` from now: the leases that will have run out by then count as lost. */
const sweepIn = (seconds: number) => {
  const later: Clock = { now: () => new Date(systemClock.now().getTime() + seconds * 1000) };
  return sweepStuckWork({ clock: later });
};

const newTask = async (input: Record<string, unknown> = { invoice_number: 'INV-1', amount: 10 }, priority = 'normal') => {
  const created = await admin('POST', '/tasks', { agent: 'invoice-checker', task_type: 'invoice.check', input, priority });
  expect(created.status).toBe(202);
  return created.body;
};

const claim = (body: Record<string, unknown> = {}) => worker('POST', '/agents/invoice-checker/claims', { wait_seconds: 0, lease_seconds: 30, ...body });

/** Claims until nothing is left, so that each test starts with an empty queue. */
async function drain(): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const claimed = await claim();
    if (claimed.status === 204) return;
    await worker('POST', `/tasks/${claimed.body.task.task_id}/fail`, { lease_id: claimed.body.lease_id, error: { code: 'drained', message: 'cleared by the test' } });
  }
}

describe('the worker protocol of custom agents, over HTTP on the local runtime', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('workers');
    ({ admin, worker } = await deployCustomAgent(runtime.baseUrl, runtime.keys.a));
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('runs a task from claim to complete: lease, heartbeat with progress, artifact, events', async () => {
    await drain();
    const task = await newTask();
    expect(task.status).toBe('queued');

    const claimed = await claim();
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ task: { task_id: task.task_id, status: 'running', input: { invoice_number: 'INV-1', amount: 10 } }, attempt: 1, decisions: [] });
    expect(Date.parse(claimed.body.lease_expires_at)).toBeGreaterThan(Date.now() + 20_000);
    const lease = claimed.body.lease_id;

    const beat = await worker('POST', `/tasks/${task.task_id}/heartbeat`, { lease_id: lease, progress: 0.5, message: 'Halfway' });
    expect(beat.status).toBe(200);
    expect(beat.body.cancel_requested).toBe(false);

    const artifact = await worker('POST', `/tasks/${task.task_id}/artifacts`, { lease_id: lease, type: 'invoice.check_report', data: { ok: true } });
    expect(artifact.status).toBe(201);
    const undeclared = await worker('POST', `/tasks/${task.task_id}/artifacts`, { lease_id: lease, type: 'invoice.other', data: {} });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.code).toBe('artifact_type_not_declared');

    const done = await worker('POST', `/tasks/${task.task_id}/complete`, { lease_id: lease });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('complete');

    const read = await admin('GET', `/tasks/${task.task_id}`);
    expect(read.body).toMatchObject({ status: 'complete', artifacts: [{ artifact_id: artifact.body.artifact_id, type: 'invoice.check_report' }] });
    const events = await admin('GET', `/events?task_id=${task.task_id}&limit=50`);
    expect(events.body.events.map((event: { type: string }) => event.type)).toEqual(['task.created', 'task.started', 'task.progress', 'artifact.emitted', 'task.complete']);

    const again = await worker('POST', `/tasks/${task.task_id}/complete`, { lease_id: lease });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('lease_lost');
  });

  it('fails input that breaks the schema at creation, and no worker ever sees it', async () => {
    await drain();
    const task = await newTask({ invoice_number: '', amount: -1 });
    expect(task).toMatchObject({ status: 'failed', error: { code: 'malformed_input' } });
    expect((await claim()).status).toBe(204);
  });

  it('hands out high before normal before low, oldest first within each', async () => {
    await drain();
    const low = await newTask(undefined, 'low');
    const normal1 = await newTask(undefined, 'normal');
    const high = await newTask(undefined, 'high');
    const normal2 = await newTask(undefined, 'normal');
    const order: string[] = [];
    for (let index = 0; index < 4; index++) {
      const claimed = await claim();
      order.push(claimed.body.task.task_id);
      await worker('POST', `/tasks/${claimed.body.task.task_id}/complete`, { lease_id: claimed.body.lease_id });
    }
    expect(order).toEqual([high.task_id, normal1.task_id, normal2.task_id, low.task_id]);
  });

  it('waits for a task that comes during a long poll', async () => {
    await drain();
    const waiting = claim({ wait_seconds: 10 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const task = await newTask();
    const claimed = await waiting;
    expect(claimed.status).toBe(200);
    expect(claimed.body.task.task_id).toBe(task.task_id);
    await worker('POST', `/tasks/${task.task_id}/complete`, { lease_id: claimed.body.lease_id });
  });

  it('re-queues a task whose lease ran out, and fails it agent_timeout at the third lost lease', async () => {
    await drain();
    const task = await newTask();
    const first = await claim();
    expect((await sweepIn(5)).leasesLost).toBe(0);
    await sweepIn(31);
    const stale = await worker('POST', `/tasks/${task.task_id}/heartbeat`, { lease_id: first.body.lease_id });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('lease_lost');

    const second = await claim();
    expect(second.body).toMatchObject({ task: { task_id: task.task_id }, attempt: 2 });
    await sweepIn(31);
    const third = await claim();
    expect(third.body.attempt).toBe(3);
    await sweepIn(31);
    const read = await admin('GET', `/tasks/${task.task_id}`);
    expect(read.body).toMatchObject({ status: 'failed', error: { code: 'agent_timeout' } });
    const types = (await admin('GET', `/events?task_id=${task.task_id}&limit=50`)).body.events.map((event: { type: string }) => event.type);
    expect(types.filter((type: string) => type === 'task.requeued')).toHaveLength(2);
  });

  it('tells the worker of a cancel through its heartbeat', async () => {
    await drain();
    const task = await newTask();
    const claimed = await claim();
    expect((await admin('DELETE', `/tasks/${task.task_id}`)).status).toBe(200);
    const beat = await worker('POST', `/tasks/${task.task_id}/heartbeat`, { lease_id: claimed.body.lease_id });
    expect(beat.body.cancel_requested).toBe(true);
    const late = await worker('POST', `/tasks/${task.task_id}/artifacts`, { lease_id: claimed.body.lease_id, type: 'invoice.check_report', data: {} });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('lease_lost');
  });

  it('pauses on a worker approval and hands the decision back on the next claim', async () => {
    await drain();
    const task = await newTask();
    const claimed = await claim();
    const approval = await worker('POST', `/tasks/${task.task_id}/approvals`, { lease_id: claimed.body.lease_id, title: 'Pay INV-1', description: 'Pay it.', action: { type: 'invoice.pay', invoice_number: 'INV-1' } });
    expect(approval.status).toBe(201);
    expect((await admin('GET', `/tasks/${task.task_id}`)).body.status).toBe('awaiting_approval');
    expect((await claim()).status).toBe(204);
    const resolved = await admin('POST', `/approvals/${approval.body.approval_id}/resolve`, { decision: 'approved', comment: 'go' });
    expect(resolved.status).toBe(200);
    const again = await claim();
    expect(again.body).toMatchObject({ task: { task_id: task.task_id }, attempt: 2, decisions: [{ approval_id: approval.body.approval_id, decision: 'approved', action: { type: 'invoice.pay' }, comment: 'go' }] });
    expect((await worker('POST', `/tasks/${task.task_id}/complete`, { lease_id: again.body.lease_id })).status).toBe(200);
  });

  it('takes triggers like any agent: a schedule queues a task for the workers, and its own artifact type starts another', async () => {
    await drain();
    const scheduled = await admin('POST', '/triggers', { name: 'Nightly invoice', source: { type: 'schedule', cron: '0 2 * * *', timezone: 'UTC' }, task: { agent: 'invoice-checker', task_type: 'invoice.check', input: { invoice_number: 'INV-S', amount: 5 } } });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
    const onReport = await admin('POST', '/triggers', {
      name: 'Recheck',
      source: { type: 'event', artifact_type: 'invoice.check_report', agent: 'invoice-checker' },
      task: { agent: 'invoice-checker', task_type: 'invoice.check', input_mapping: { invoice_number: '/artifact/data/invoice_number', amount: '/artifact/data/amount' } },
    });
    expect(onReport.status, JSON.stringify(onReport.body)).toBe(201);

    const fired = await admin('POST', `/triggers/${scheduled.body.trigger_id}/fire`);
    expect(fired.body).toMatchObject({ outcome: 'task_created' });
    const first = await claim();
    expect(first.body.task).toMatchObject({ task_id: fired.body.task_id, input: { invoice_number: 'INV-S', amount: 5 }, trigger: { type: 'schedule', trigger_id: scheduled.body.trigger_id } });
    await worker('POST', `/tasks/${fired.body.task_id}/artifacts`, { lease_id: first.body.lease_id, type: 'invoice.check_report', data: { invoice_number: 'INV-E', amount: 7 } });
    await worker('POST', `/tasks/${fired.body.task_id}/complete`, { lease_id: first.body.lease_id });

    const second = await claim({ wait_seconds: 10 });
    expect(second.body.task).toMatchObject({ input: { invoice_number: 'INV-E', amount: 7 }, trigger: { type: 'event', trigger_id: onReport.body.trigger_id, source_task_id: fired.body.task_id } });
    await worker('POST', `/tasks/${second.body.task.task_id}/complete`, { lease_id: second.body.lease_id });
    for (const trigger of [scheduled.body, onReport.body]) expect((await admin('DELETE', `/triggers/${trigger.trigger_id}`)).status).toBe(204);
  });

  it('refuses an agent key everywhere else, and other keys the protocol', async () => {
    for (const [method, path] of [['GET', '/tasks'], ['GET', '/agents'], ['POST', '/tasks'], ['GET', '/events'], ['GET', '/me']] as const) {
      const answer = await worker(method, path, method === 'POST' ? {} : undefined);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
    const byAdmin = await admin('POST', '/agents/invoice-checker/claims', { wait_seconds: 0 });
    expect(byAdmin.status).toBe(403);
    // Sessions are the built-in agents': a claim carries no transcript.
    const session = await admin('POST', '/sessions', { agent: 'invoice-checker' });
    expect(session.status).toBe(400);
    expect(session.body.detail).toContain('custom agent');
  });
});
