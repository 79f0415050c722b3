import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { findAgentBySlug } from '#shared/agents/catalog';
import type { Clock } from '#shared/domain/clock';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { approvalGate } from '#shared/services/approval-gate';
import { setPlan } from '#shared/services/retention';
import { retentionStamps } from '#shared/services/retention-stamps';
import { storedTask } from '../support/task-fixtures';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';

const DAY = 86_400_000;
let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
let tenantA: string;
let tenantB: string;

const plusDays = (iso: string, days: number) => new Date(Math.ceil((Date.parse(iso) + days * DAY) / 1000) * 1000).toISOString();

/** Creates an audit task over HTTP and waits until it completed; returns it with its artifacts. */
async function completedAudit(call: ReturnType<typeof apiClient>) {
  const created = await call('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
  expect(created.status).toBe(202);
  return eventually(async () => {
    const { body } = await call('GET', `/tasks/${created.body.task_id}`);
    return body.status === 'complete' ? body : undefined;
  }, 30_000);
}

describe('retention end to end over HTTP', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('retention');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    for (const call of [a, b]) expect((await call('POST', '/agents/deploy', { agent_slug: 'ai-readiness' })).status).toBe(201);
    // The tenant ids of the runtime's two keys, as the API reports them on a task.
    tenantA = (await completedAudit(a)).tenant_id;
    tenantB = (await completedAudit(b)).tenant_id;
    await setPlan(tenantB, 'pro');
  }, 90_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers GET /settings/retention with the defaults of each plan', async () => {
    const free = await a('GET', '/settings/retention');
    const pro = await b('GET', '/settings/retention');

    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({ plan: 'free', retention_days: 90, default_retention_days: 90, max_retention_days: 90, applies_to: ['artifacts'], updated_at: null });
    expect(pro.body).toMatchObject({ plan: 'pro', retention_days: null, default_retention_days: null, max_retention_days: null, indefinite_allowed: true, applies_to: ['artifacts'] });
  });

  it('lets a free tenant shorten its retention and refuses what its plan does not allow with a 400 that changes nothing', async () => {
    const allowed = await a('PATCH', '/settings/retention', { retention_days: 30 });
    const refused = [
      await a('PATCH', '/settings/retention', { retention_days: null }),
      await a('PATCH', '/settings/retention', { retention_days: 91 }),
    ];
    const malformed = [
      await a('PATCH', '/settings/retention', { retention_days: 30, plan: 'pro' }),
      await a('PATCH', '/settings/retention', {}),
      await a('PATCH', '/settings/retention', { retention_days: '30' }),
      await a('PATCH', '/settings/retention', '{"retention_days":'),
    ];

    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ plan: 'free', retention_days: 30, default_retention_days: 90, updated_at: expect.any(String) });
    for (const response of refused) {
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.body).toMatchObject({ code: 'retention_not_allowed_on_plan', detail: expect.stringContaining('free plan; choose 1 to 90 days') });
    }
    for (const response of malformed) expect([response.status, response.headers.get('content-type')]).toEqual([400, expect.stringContaining('application/problem+json')]);
    expect((await a('GET', '/settings/retention')).body.retention_days).toBe(30);
  });

  it('stamps new artifacts with the expiry in force, and answers 404 for one past its expiry, gone from every list', async () => {
    await a('PATCH', '/settings/retention', { retention_days: 30 });
    const task = await completedAudit(a);
    // An artifact written 100 days ago through the same runner, with a clock set back.
    const hundredDaysAgo: Clock = { now: () => new Date(Date.now() - 100 * DAY) };
    const oldTask = await storedTask(tenantA);
    await new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: hundredDaysAgo, retention: retentionStamps }).run(tenantA, oldTask.task_id);
    const oldIds = Object.keys((await taskRepository.load(tenantA, oldTask.task_id))!.artifacts);

    const fresh = await a('GET', `/artifacts/${task.artifacts[0].artifact_id}`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.expires_at).toBe(plusDays(fresh.body.created_at, 30));
    expect(oldIds).toHaveLength(2);
    for (const id of oldIds) {
      const gone = await a('GET', `/artifacts/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe('artifact_not_found');
      expect((await a('DELETE', `/artifacts/${id}`)).status).toBe(404);
    }
    expect((await a('GET', `/tasks/${oldTask.task_id}/artifacts`)).body.artifacts).toEqual([]);
    expect((await a('GET', `/artifacts?task_id=${oldTask.task_id}`)).body.artifacts).toEqual([]);
  });

  it('removes the expiry of existing artifacts when a pro tenant goes back to indefinite', async () => {
    const task = await completedAudit(b);
    const ids: string[] = task.artifacts.map((artifact: { artifact_id: string }) => artifact.artifact_id);
    const expiries = async () => Promise.all(ids.map(async (id) => (await b('GET', `/artifacts/${id}`)).body.expires_at));
    expect(await expiries()).toEqual([null, null]);

    expect((await b('PATCH', '/settings/retention', { retention_days: 365 })).status).toBe(200);
    const stamped = await eventually(async () => ((await expiries()).every((expiry) => expiry !== null) ? expiries() : undefined), 30_000);
    expect(stamped).toEqual(task.artifacts.map((artifact: { created_at: string }) => plusDays(artifact.created_at, 365)));

    const indefinite = await b('PATCH', '/settings/retention', { retention_days: null });
    expect(indefinite.body).toMatchObject({ plan: 'pro', retention_days: null });
    await eventually(async () => ((await expiries()).every((expiry) => expiry === null) ? true : undefined), 30_000);
    for (const id of ids) {
      const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.artifact(tenantB, id), ConsistentRead: true }));
      expect(Item).toBeDefined();
      expect(Item!.expires_at_epoch).toBeUndefined();
    }
  }, 90_000);
});
