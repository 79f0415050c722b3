import { describe, expect, it, vi } from 'vitest';
import { gate, useFakeGatehouse } from './harness.ts';

const gatehouse = useFakeGatehouse();

describe('graceful stop', () => {
  it('lets a handler that finishes within the grace complete, and claims nothing more', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    const started = gate();
    const finish = gate();
    const { worker } = await gatehouse.startWorker({
      'invoice.check': async () => {
        started.open();
        await finish.promise;
      },
    });
    await started.promise;

    const stopping = worker.stop();
    finish.open();
    await stopping;

    expect(gatehouse.fake.task(taskId).status).toBe('complete');
    expect(gatehouse.fake.sent('release')).toEqual([]);
    const claimsAtStop = gatehouse.fake.sent('claims').length;
    gatehouse.fake.enqueue('invoice.check');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(gatehouse.fake.sent('claims')).toHaveLength(claimsAtStop);
  });

  it('releases the task of a handler still running after the grace and aborts its signal with shutdown', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    const started = gate();
    let reason: unknown;
    const { worker, logs } = await gatehouse.startWorker(
      {
        // Never settles: the worker must stop all the same.
        'invoice.check': (_input, ctx) => {
          ctx.signal.addEventListener('abort', () => (reason = ctx.signal.reason));
          started.open();
          return new Promise(() => {});
        },
      },
      { shutdownGraceMs: 200 },
    );
    await started.promise;
    const stopAt = Date.now();

    await worker.stop();

    expect(Date.now() - stopAt).toBeGreaterThanOrEqual(190);
    expect(reason).toBe('shutdown');
    expect(gatehouse.fake.sent('release', taskId)).toHaveLength(1);
    expect(gatehouse.fake.sent(undefined, taskId).map((request) => request.route)).not.toContain('complete');
    expect(gatehouse.fake.task(taskId).status).toBe('queued');
    expect(logs.map((line) => line.message)).toEqual(expect.arrayContaining(['task released', 'worker stopped']));
  });

  it('lets a claim the server is holding answer, and gives back the task it brings, so no task is taken for nobody', async () => {
    let ran = false;
    const { worker } = await gatehouse.startWorker({ 'invoice.check': async () => void (ran = true) }, { waitSeconds: 20 });
    await vi.waitFor(() => expect(gatehouse.fake.sent('claims')).toHaveLength(1), { interval: 5 });

    const stopping = worker.stop();
    const taskId = gatehouse.fake.enqueue('invoice.check');
    await stopping;

    expect(ran).toBe(false);
    expect(gatehouse.fake.sent('release', taskId)).toHaveLength(1);
    expect(gatehouse.fake.task(taskId).status).toBe('queued');
    expect(gatehouse.fake.sent('claims')).toHaveLength(1);
  });

  it('ends a claim still held when the shutdown grace runs out', async () => {
    const { worker } = await gatehouse.startWorker({ 'invoice.check': async () => {} }, { waitSeconds: 20, shutdownGraceMs: 200 });
    await vi.waitFor(() => expect(gatehouse.fake.sent('claims')).toHaveLength(1), { interval: 5 });
    const stopAt = Date.now();

    await worker.stop();

    expect(Date.now() - stopAt).toBeLessThan(1_000);
  });

  it('stops gracefully on SIGTERM and removes its signal listeners', async () => {
    const listeners = { SIGTERM: process.listenerCount('SIGTERM'), SIGINT: process.listenerCount('SIGINT') };
    const { worker } = await gatehouse.startWorker({ 'invoice.check': async () => {} }, { handleSignals: true });
    expect(process.listenerCount('SIGTERM')).toBe(listeners.SIGTERM + 1);

    process.emit('SIGTERM', 'SIGTERM');
    await worker.stopped;

    expect(process.listenerCount('SIGTERM')).toBe(listeners.SIGTERM);
    expect(process.listenerCount('SIGINT')).toBe(listeners.SIGINT);
  });
});
