import { describe, expect, it, vi } from 'vitest';
import type { TaskContext } from '../../../sdk/typescript/src/index.ts';
import { gate, useFakeGatehouse } from './harness.ts';

const gatehouse = useFakeGatehouse();

describe('a task from claim to complete', () => {
  it('claims, sends progress on a heartbeat, emits an artifact and completes, one Idempotency-Key per call', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check', { invoice: 42 });
    const seen: { input?: unknown; ctx?: TaskContext; artifact?: unknown } = {};

    await gatehouse.startWorker({
      'invoice.check': async (input, ctx) => {
        seen.input = input;
        seen.ctx = ctx;
        await ctx.progress('Reading the invoice', 0.1);
        await vi.waitFor(() => expect(gatehouse.fake.sent('heartbeat', taskId)).not.toHaveLength(0), { interval: 5 });
        seen.artifact = await ctx.emitArtifact('invoice.report', { total: 42 });
      },
    });
    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));

    const [claim] = gatehouse.fake.sent('claims');
    expect(claim.body).toEqual({ wait_seconds: 1, lease_seconds: 10 });
    expect(claim.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.input).toEqual({ invoice: 42 });
    expect(seen.ctx).toMatchObject({ taskId, attempt: 1, decisions: [], input: { invoice: 42 } });
    const sent = gatehouse.fake.sent(undefined, taskId);
    const leaseId = sent[0].body.lease_id as string;
    expect(sent[0]).toMatchObject({ route: 'heartbeat', body: { lease_id: leaseId, lease_seconds: 10, message: 'Reading the invoice', progress: 0.1 } });
    expect(sent.filter((request) => request.route !== 'heartbeat').map(({ route, body }) => ({ route, body }))).toEqual([
      { route: 'artifacts', body: { lease_id: leaseId, type: 'invoice.report', data: { total: 42 } } },
      { route: 'complete', body: { lease_id: leaseId } },
    ]);
    expect(seen.artifact).toEqual({ artifact_id: gatehouse.fake.task(taskId).artifacts[0].artifact_id, type: 'invoice.report', created_at: expect.any(String) });
    // One key per call, numbered within the run in the order the calls were made.
    const numbers = sent.map((request) => Number(request.idempotencyKey?.replace(`${leaseId}:`, '')));
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  });

  it('runs as many tasks at once as its concurrency', async () => {
    const first = gatehouse.fake.enqueue('invoice.check');
    const second = gatehouse.fake.enqueue('invoice.check');
    const bothRunning = gate();
    let running = 0;

    await gatehouse.startWorker(
      {
        'invoice.check': async () => {
          if (++running === 2) bothRunning.open();
          await bothRunning.promise;
        },
      },
      { concurrency: 2 },
    );

    await vi.waitFor(() => expect([gatehouse.fake.task(first).status, gatehouse.fake.task(second).status]).toEqual(['complete', 'complete']));
  });

  it('logs one line per notable thing', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');

    const { logs } = await gatehouse.startWorker({ 'invoice.check': async () => {} });
    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));

    await vi.waitFor(() => expect(logs.map((line) => line.message)).toEqual(['worker started', 'task claimed', 'task completed']));
    expect(logs[2]).toMatchObject({ level: 'info', task_id: taskId, task_type: 'invoice.check', attempt: 1 });
  });
});
