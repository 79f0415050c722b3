import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';

/**
 * Issue 25, finding 6, from the requests that confirmed it: caps checked by listing then writing
 * let concurrent creations through (33 webhooks of 25, 111 triggers of 100). Each cap is now a
 * conditional counter in the create's own transaction.
 */
let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;

const webhookBody = (index: number) => ({ url: `https://hooks.example.com/${index}`, events: ['task.complete'], secret: 'whsec-test-secret-0123456789' });
const triggerBody = (index: number) => ({
  name: `Trigger ${index}`,
  source: { type: 'event', artifact_type: 'ai_readiness.gap_summary' },
  task: { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } },
  enabled: false,
});

describe('per-tenant caps under concurrent creation', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('caps');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    await b('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('60 concurrent POST /webhooks create exactly 25 and answer 35 × 409 webhook_limit_reached', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, index) => a('POST', '/webhooks', webhookBody(index))));

    expect(answers.filter((answer) => answer.status === 201).length, JSON.stringify(answers.filter((answer) => answer.status !== 201 && answer.status !== 409).map((answer) => answer.body))).toBe(25);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(35);
    expect(refused.every((answer) => answer.status === 409 && answer.body.code === 'webhook_limit_reached' && answer.headers.get('content-type') === 'application/problem+json')).toBe(true);
    const listed = (await a('GET', '/webhooks')).body.webhooks;
    expect(listed).toHaveLength(25);

    // A deletion frees exactly one place; the other tenant's cap is its own.
    expect((await a('DELETE', `/webhooks/${listed[0].webhook_id}`)).status).toBe(204);
    const again = await Promise.all([0, 1, 2].map((index) => a('POST', '/webhooks', webhookBody(100 + index))));
    expect(again.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect((await b('POST', '/webhooks', webhookBody(0))).status).toBe(201);
  }, 90_000);

  it('40 concurrent trigger creations at 90 existing stop at exactly 100', async () => {
    for (let index = 0; index < 90; index++) expect((await a('POST', '/triggers', triggerBody(index))).status).toBe(201);

    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => a('POST', '/triggers', triggerBody(90 + index))));

    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 409 && answer.body.code === 'trigger_limit_reached')).toHaveLength(30);
    let count = 0;
    for (let cursor: string | null = '', page = 0; cursor !== null && page < 10; page++) {
      const { body }: { body: { triggers: unknown[]; next_cursor: string | null } } = await a('GET', `/triggers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      count += body.triggers.length;
      cursor = body.next_cursor;
    }
    expect(count).toBe(100);
  }, 120_000);
});
