import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { TaskAborted, type TaskContext } from '../../../sdk/typescript/src/index.ts';
import { useFakeGatehouse } from './harness.ts';

const gatehouse = useFakeGatehouse();

/** Resolves with the signal's reason once it aborts. */
const aborted = (ctx: TaskContext) => new Promise<unknown>((resolve) => ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason), { once: true }));

/** Resolves once `count` heartbeats of the task reached the fake. */
const heartbeats = (taskId: string, count: number) => vi.waitFor(() => expect(gatehouse.fake.sent('heartbeat', taskId).length).toBeGreaterThanOrEqual(count), { interval: 5 });

describe('the lease while a handler runs', () => {
  it('heartbeats throughout a slow handler, each carrying only the latest progress since the one before', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');

    await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        await ctx.progress('Reading', 0.1);
        await ctx.progress('Parsing', 0.2);
        await ctx.progress('Checking totals', 0.3);
        await heartbeats(taskId, 3);
        await ctx.progress('Writing the report', 0.9);
        await heartbeats(taskId, 5);
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    const sent = gatehouse.fake.sent('heartbeat', taskId).map((request) => request.body);
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(sent.every((body) => body.lease_seconds === 10 && typeof body.lease_id === 'string')).toBe(true);
    expect(sent[0]).toMatchObject({ message: 'Checking totals', progress: 0.3 });
    expect(sent.filter((body) => 'progress' in body).map((body) => body.message)).toEqual(['Checking totals', 'Writing the report']);
  });

  it('tries a heartbeat that fails transiently again, keeping its progress for the next one', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    // Three tries per call: the first heartbeat fails for good, the second gets through.
    gatehouse.fake.script('heartbeat', ...Array.from({ length: 3 }, () => ({ status: 503 })));

    const { logs } = await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        await ctx.progress('Reading', 0.5);
        await heartbeats(taskId, 4);
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    const sent = gatehouse.fake.sent('heartbeat', taskId);
    expect(sent.slice(0, 4).map((request) => request.body.message)).toEqual(['Reading', 'Reading', 'Reading', 'Reading']);
    expect(new Set(sent.slice(0, 3).map((request) => request.idempotencyKey)).size).toBe(1);
    expect(sent[3].idempotencyKey).not.toBe(sent[0].idempotencyKey);
    expect(logs.filter((line) => line.message.startsWith('heartbeat failed'))).toHaveLength(1);
  });

  it('aborts the signal with cancelled when a person cancels, and sends nothing more for the task', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    const outcome: { reason?: unknown; afterwards?: unknown } = {};
    let finished = false;

    const { logs } = await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        gatehouse.fake.cancel(taskId);
        outcome.reason = await aborted(ctx);
        outcome.afterwards = await ctx.emitArtifact('invoice.report', {}).catch((error: unknown) => error);
        finished = true;
      },
    });

    await vi.waitFor(() => expect(finished).toBe(true));
    expect(outcome.reason).toBe('cancelled');
    expect(outcome.afterwards).toBeInstanceOf(TaskAborted);
    expect(outcome.afterwards).toMatchObject({ reason: 'cancelled' });
    const before = gatehouse.fake.sent(undefined, taskId).length;
    await sleep(200);
    expect(gatehouse.fake.sent(undefined, taskId)).toHaveLength(before);
    expect(gatehouse.fake.sent(undefined, taskId).map((request) => request.route)).toEqual(Array(before).fill('heartbeat'));
    expect(logs.map((line) => line.message)).toContain('task cancelled');
  });

  it('aborts the signal with lease_lost on a 409 heartbeat, drops the task quietly and sends nothing more', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    let reason: unknown;

    const { logs } = await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        gatehouse.fake.loseLease(taskId);
        reason = await aborted(ctx);
        throw new Error('stopped half-way');
      },
    });

    await vi.waitFor(() => expect(reason).toBe('lease_lost'));
    await sleep(200);
    expect(gatehouse.fake.sent(undefined, taskId).map((request) => request.route)).toEqual(['heartbeat']);
    expect(logs.find((line) => line.message === 'lease lost; the task is dropped')).toMatchObject({ level: 'warn', task_id: taskId });
  });

  it('aborts with lease_lost when any call is refused with lease_lost', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    const outcome: { error?: unknown; reason?: unknown } = {};

    await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        gatehouse.fake.loseLease(taskId);
        outcome.error = await ctx.emitArtifact('invoice.report', {}).catch((error: unknown) => error);
        outcome.reason = ctx.signal.reason;
      },
    });

    await vi.waitFor(() => expect(outcome.reason).toBe('lease_lost'));
    expect(outcome.error).toMatchObject({ name: 'TaskAborted', reason: 'lease_lost' });
    await sleep(200);
    expect(gatehouse.fake.sent(undefined, taskId).map((request) => request.route)).toEqual(['artifacts']);
  });
});
