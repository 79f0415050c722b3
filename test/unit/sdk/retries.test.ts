import { describe, expect, it, vi } from 'vitest';
import { GatehouseError } from '../../../sdk/typescript/src/index.ts';
import { useFakeGatehouse } from './harness.ts';

const gatehouse = useFakeGatehouse();

describe('retries', () => {
  it('retries a 503 with the same Idempotency-Key and body', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    gatehouse.fake.script('artifacts', { status: 503, code: 'service_unavailable' });

    await gatehouse.startWorker({ 'invoice.check': (_input, ctx) => ctx.emitArtifact('invoice.report', { total: 42 }) });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    const [first, retry] = gatehouse.fake.sent('artifacts');
    expect(retry.idempotencyKey).toBe(first.idempotencyKey);
    expect(retry.body).toEqual(first.body);
    expect(gatehouse.fake.task(taskId).artifacts).toHaveLength(1);
  });

  it('creates nothing twice when the first answer was lost after the server acted', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    gatehouse.fake.script('artifacts', { status: 502, afterProcessing: true });
    let artifactId: string | undefined;

    await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        artifactId = (await ctx.emitArtifact('invoice.report', { total: 42 })).artifact_id;
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    expect(gatehouse.fake.sent('artifacts')).toHaveLength(2);
    expect(gatehouse.fake.task(taskId).artifacts.map((artifact) => artifact.artifact_id)).toEqual([artifactId]);
  });

  it('waits as long as a 429 Retry-After says', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    gatehouse.fake.script('artifacts', { status: 429, code: 'rate_limited', headers: { 'Retry-After': '1' } });

    await gatehouse.startWorker({ 'invoice.check': (_input, ctx) => ctx.emitArtifact('invoice.report', {}) }, { retry: { attempts: 3, baseMs: 10, maxMs: 5_000 } });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'), { timeout: 3_000 });
    const [first, retry] = gatehouse.fake.sent('artifacts');
    // Timers may fire a millisecond early against Date.now().
    expect(retry.at - first.at).toBeGreaterThanOrEqual(990);
  });

  it('retries a 409 that asks for it: the first request with the same key is still running', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    gatehouse.fake.script('complete', { status: 409, code: 'idempotency_request_in_progress' });

    await gatehouse.startWorker({ 'invoice.check': async () => {} });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    const [first, retry] = gatehouse.fake.sent('complete');
    expect(retry.idempotencyKey).toBe(first.idempotencyKey);
  });

  it('does not retry a 400: the handler sees a GatehouseError, and the task fails with it', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    gatehouse.fake.script('artifacts', { status: 400, code: 'artifact_type_not_declared' });
    const errors: unknown[] = [];

    await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        await ctx.emitArtifact('invoice.secret', {}).catch((error: unknown) => {
          errors.push(error);
          throw error;
        });
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('failed'));
    expect(gatehouse.fake.sent('artifacts')).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(GatehouseError);
    expect(errors[0]).toMatchObject({ status: 400, code: 'artifact_type_not_declared', detail: 'a scripted answer' });
    expect(gatehouse.fake.task(taskId).error).toEqual({ code: 'agent_error', message: 'artifact_type_not_declared (400): a scripted answer' });
  });

  it('gives up after retry.attempts tries with the last error', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    gatehouse.fake.script('tool-calls', ...Array.from({ length: 3 }, () => ({ status: 503, code: 'tool_proxy_unavailable' })));
    const errors: unknown[] = [];

    await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        await ctx.callTool('github.read_file', { path: 'invoices/42.json' }).catch((error: unknown) => errors.push(error));
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    expect(gatehouse.fake.sent('tool-calls')).toHaveLength(3);
    expect(errors).toEqual([expect.objectContaining({ status: 503, code: 'tool_proxy_unavailable' })]);
  });
});
