import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, type ApiResponse } from '../../support/local-runtime';
import { removeDataDir, startRuntimeProcess, type RuntimeProcess } from '../../support/runtime-process';
import { startReceiver } from '../../support/webhook-receiver';

const key = 'gh_test_db_outage_0123456789';
const OUTAGE_MS = 10_000;
const TASKS_BEFORE = 20;

/** A request during the outage: its answer and how long it took, never longer than the outage. */
async function timed(call: () => Promise<ApiResponse>): Promise<{ response?: ApiResponse; error?: unknown; ms: number }> {
  const started = Date.now();
  try {
    return { response: await call(), ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
}

describe('the database stops answering for 10 s', () => {
  let runtime: RuntimeProcess | undefined;
  let frozenPid: number | undefined;

  afterAll(async () => {
    if (frozenPid) process.kill(frozenPid, 'SIGCONT');
    await runtime?.stop();
    if (runtime) removeDataDir(runtime.dataDir);
  });

  it('answers 503 problem+json with Retry-After at once, never hangs, and resumes the work by itself', async () => {
    // Its own runtime and engines: freezing this DynamoDB Local disturbs no other test file. The
    // sweeper runs every 2 s and takes a worker silent for 5 s for dead, so work a frozen write
    // dropped is sent again soon after the database is back (instead of after the 12-minute
    // visibility timeout of its queue).
    runtime = await startRuntimeProcess({
      apiKeys: `outage:${key}`,
      env: { GATEHOUSE_RECURRING_JOB_INTERVAL_MS: '2000', SWEEPER_STALLED_TASK_SECONDS: '5', SWEEPER_REDISPATCH_AFTER_SECONDS: '5' },
    });
    const api = apiClient(runtime.baseUrl, key);
    const receiver = await startReceiver(() => 204);
    try {
      await api('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
      expect((await api('POST', '/webhooks', { url: receiver.url, events: ['task.complete'], secret: 'whsec-outage-0123456789' })).status).toBe(201);
      const before: string[] = [];
      for (let index = 0; index < TASKS_BEFORE; index++) before.push((await api('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } })).body.task_id);

      // The database stops answering (its process is frozen; connections stay open and silent).
      frozenPid = runtime.dynamodbPid();
      process.kill(frozenPid, 'SIGSTOP');
      const outageStarted = Date.now();
      const during = await Promise.all([
        timed(() => api('GET', `/tasks/${before[0]}`)),
        timed(() => api('GET', '/tasks?limit=5')),
        timed(() => api('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } })),
        timed(() => api('GET', `/events?task_id=${before[1]}`)),
        timed(() => api('GET', '/agents')),
      ]);
      const answeredWithin = Date.now() - outageStarted;
      // Still frozen when every answer was in: they came before the outage ended, not after it.
      expect(answeredWithin).toBeLessThan(OUTAGE_MS);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - outageStarted))));
      process.kill(frozenPid, 'SIGCONT');
      frozenPid = undefined;

      for (const { response, error } of during) {
        expect(error).toBeUndefined();
        expect(response!.status).toBe(503);
        expect(response!.headers.get('content-type')).toContain('application/problem+json');
        expect(Number(response!.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(response!.body).toMatchObject({ status: 503, code: 'service_unavailable' });
      }

      // Work resumes by itself: the tasks created before the outage all complete, the API answers
      // again, and the stream poller still fans events out to webhooks.
      const finished = await eventually(
        async () => {
          const all = await Promise.all(before.map(async (taskId) => (await api('GET', `/tasks/${taskId}`)).body.status));
          return all.every((status) => status === 'complete') ? all : undefined;
        },
        180_000,
        1_000,
      );
      expect(finished).toHaveLength(TASKS_BEFORE);
      const after = await api('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
      expect(after.status).toBe(202);
      await eventually(async () => ((await api('GET', `/tasks/${after.body.task_id}`)).body.status === 'complete' ? true : undefined), 60_000, 500);
      const delivered = () => new Set(receiver.received.map((delivery) => JSON.parse(delivery.body).data.task_id));
      await eventually(async () => ([...before, after.body.task_id].every((taskId) => delivered().has(taskId)) ? true : undefined), 120_000, 500);
    } catch (error) {
      throw new Error(`${String(error)}\n--- runtime output ---\n${runtime.output.slice(-40).join('\n')}`);
    } finally {
      await receiver.close();
    }
  }, 420_000);
});
