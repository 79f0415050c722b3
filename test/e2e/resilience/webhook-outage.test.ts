import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { expectedDeliveries, firstReceipts, inArrivalOrder } from '../../support/deduped-deliveries';
import { startReceiver } from '../../support/webhook-receiver';

const SUBSCRIBED = ['task.created', 'task.started', 'task.progress', 'artifact.emitted', 'task.complete'];
const TASKS = 4;
const OUTAGE_MS = 6_000;

describe('a webhook receiver that is down for a while, then back', () => {
  let runtime: TestRuntime;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    // Retries after about 2, 3, 6, 12 s instead of 30 s, 1, 2, 4 min: the schedule's shape, shrunk.
    process.env.WEBHOOK_RETRY_SCALE_PERCENT = '5';
    process.env.WEBHOOK_TIMEOUT_MS = '5000';
    runtime = await startTestRuntime('webhook-outage');
    api = apiClient(runtime.baseUrl, runtime.keys.a);
    await api('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it("delivers every event once it is back, each task's events in order for a receiver that dedupes by X-Service-Delivery", async () => {
    let down = true;
    const receiver = await startReceiver(() => (down ? 503 : 204));
    try {
      const { status } = await api('POST', '/webhooks', { url: receiver.url, events: SUBSCRIBED, secret: 'whsec-outage-0123456789' });
      expect(status).toBe(201);

      const taskIds: string[] = [];
      for (let index = 0; index < TASKS; index++) taskIds.push((await api('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } })).body.task_id);
      await eventually(async () => {
        const all = await Promise.all(taskIds.map(async (taskId) => (await api('GET', `/tasks/${taskId}`)).body.status));
        return all.every((status) => status === 'complete') ? true : undefined;
      }, 60_000, 250);
      // The receiver stays down a while longer, so deliveries pile up in retries.
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      const failedWhileDown = receiver.received.length;
      down = false;

      // Every event of every task, from the event log, in its order.
      const expected = await expectedDeliveries(api, taskIds, SUBSCRIBED);
      const allExpected = [...expected.values()].flat();
      // A receiver that dedupes by delivery id: the first successful receipt of each id counts.
      const accepted = () => firstReceipts(receiver.received, failedWhileDown);
      await eventually(async () => (allExpected.every((id) => accepted().has(id)) ? true : undefined), 180_000, 500);

      expect(failedWhileDown).toBeGreaterThan(0);
      const seen = accepted();
      expect([...seen.keys()].sort()).toEqual([...allExpected].sort());
      for (const [taskId, ids] of expected) expect(inArrivalOrder(seen, taskId), taskId).toEqual(ids);
    } finally {
      await receiver.close();
    }
  }, 300_000);
});
