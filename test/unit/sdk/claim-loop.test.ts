import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { useFakeGatehouse } from './harness.ts';

const gatehouse = useFakeGatehouse();

describe('the claim loop', () => {
  it('backs off while claims fail, without a busy loop, and logs each failure', async () => {
    gatehouse.fake.script('claims', ...Array.from({ length: 1_000 }, () => ({ status: 500, code: 'internal' })));

    const { logs } = await gatehouse.startWorker({ 'invoice.check': async () => {} }, { retry: { attempts: 2, baseMs: 20, maxMs: 100 } });
    await sleep(600);

    // A busy loop makes hundreds of requests in this window; backing off, a few dozen at most.
    const claims = gatehouse.fake.sent('claims').length;
    expect(claims).toBeGreaterThanOrEqual(4);
    expect(claims).toBeLessThan(60);
    expect(logs.filter((line) => line.message === 'claim failed; trying again').every((line) => line.level === 'warn')).toBe(true);
  });

  it('logs a refusal that retrying cannot cure as an error, and still backs off', async () => {
    gatehouse.fake.script('claims', ...Array.from({ length: 1_000 }, () => ({ status: 403, code: 'forbidden' })));

    const { logs } = await gatehouse.startWorker({ 'invoice.check': async () => {} }, { retry: { attempts: 2, baseMs: 20, maxMs: 100 } });
    await sleep(300);

    expect(gatehouse.fake.sent('claims').length).toBeLessThan(40);
    expect(logs.find((line) => line.message === 'claim failed; trying again')).toMatchObject({ level: 'error', error: 'forbidden (403): a scripted answer' });
  });

  it('claims again at once after a 204, each claim with a key of its own', async () => {
    gatehouse.fake.script('claims', { status: 204 }, { status: 204 }, { status: 204 });
    const taskId = gatehouse.fake.enqueue('invoice.check');
    const startedAt = Date.now();

    // Backoff this long would show: the three 204s must cost no wait at all.
    await gatehouse.startWorker({ 'invoice.check': async () => {} }, { retry: { attempts: 2, baseMs: 2_000, maxMs: 2_000 } });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    const keys = gatehouse.fake.sent('claims').map((request) => request.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('pauses between claims when it asks the server not to wait', async () => {
    const { worker } = await gatehouse.startWorker({ 'invoice.check': async () => {} }, { waitSeconds: 0, retry: { attempts: 2, baseMs: 50, maxMs: 100 } });
    await sleep(300);
    await worker.stop();

    expect(gatehouse.fake.sent('claims').length).toBeLessThanOrEqual(8);
  });
});
