import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, eventually } from '../../support/local-runtime';
import { removeDataDir, startRuntimeProcess, type RuntimeProcess } from '../../support/runtime-process';
import { expectedDeliveries, firstReceipts, inArrivalOrder } from '../../support/deduped-deliveries';
import { startReceiver } from '../../support/webhook-receiver';

const TASKS = 30;
const key = 'gh_test_crash_webhooks_0123456789';
const SUBSCRIBED = ['task.created', 'task.started', 'task.progress', 'artifact.emitted', 'task.complete'];
/**
 * A slow receiver, so that deliveries pile up in the queue that the crash then wipes. At 150 ms the
 * deliverer's 20 concurrent attempts drained ~180 deliveries in about a second, and under CI load
 * the crash sometimes found none queued (nothing to re-send); at 1 s they take about nine.
 */
const RECEIVER_DELAY_MS = 1_000;

describe('a runtime killed (SIGKILL) with webhook deliveries queued, then started again on the same data', () => {
  const processes: RuntimeProcess[] = [];
  const closers: (() => Promise<void>)[] = [];

  afterAll(async () => {
    for (const close of closers) await close();
    for (const runtime of processes.reverse()) await runtime.stop();
    if (processes[0]) removeDataDir(processes[0].dataDir);
  });

  it("delivers every event after the restart, each task's events in order for a receiver that dedupes by X-Service-Delivery", async () => {
    const receiver = await startReceiver(() => 204, { delayMs: RECEIVER_DELAY_MS });
    closers.push(receiver.close);
    const first = await startRuntimeProcess({ apiKeys: `crashhooks:${key}` });
    processes.push(first);
    const api = apiClient(first.baseUrl, key);
    await api('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
    expect((await api('POST', '/webhooks', { url: receiver.url, events: SUBSCRIBED, secret: 'whsec-crash-0123456789' })).status).toBe(201);

    const taskIds: string[] = [];
    for (let index = 0; index < TASKS; index++) taskIds.push((await api('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } })).body.task_id);
    // Some deliveries are queued (the receiver is slow): the crash loses their messages.
    await eventually(async () => (receiver.received.length >= 20 ? true : undefined), 60_000, 100);
    await first.crash();
    const deliveredBeforeCrash = receiver.received.length;

    const second = await startRuntimeProcess({ apiKeys: `crashhooks:${key}`, dataDir: first.dataDir, port: first.port });
    processes.push(second);
    await eventually(
      async () => {
        const all = await Promise.all(taskIds.map(async (taskId) => (await api('GET', `/tasks/${taskId}`)).body.status));
        return all.every((status) => ['complete', 'failed', 'cancelled'].includes(status)) ? true : undefined;
      },
      180_000,
      1_000,
    );
    const expected = await expectedDeliveries(api, taskIds, SUBSCRIBED);
    const allExpected = [...expected.values()].flat();
    const accepted = () => firstReceipts(receiver.received);
    await eventually(async () => (allExpected.every((id) => accepted().has(id)) ? true : undefined), 180_000, 500).catch((error: unknown) => {
      const missing = allExpected.filter((id) => !accepted().has(id));
      throw new Error(`${String(error)}; ${missing.length} of ${allExpected.length} events never delivered\n--- runtime output ---\n${second.output.slice(-30).join('\n')}`);
    });

    // The restart found deliveries whose messages the crash had lost, and queued them again.
    expect(deliveredBeforeCrash).toBeLessThan(allExpected.length);
    expect(second.output.join('\n')).toMatch(/Re-sent [1-9]\d* webhook delivery attempt\(s\)/);
    const seen = accepted();
    expect([...seen.keys()].sort()).toEqual([...allExpected].sort());
    for (const [taskId, ids] of expected) expect(inArrivalOrder(seen, taskId), taskId).toEqual(ids);
  }, 600_000);
});

