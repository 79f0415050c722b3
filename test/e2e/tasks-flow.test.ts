import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
let agents: { aiReadiness: string; sales: string };

async function finished(call: typeof a, taskId: string) {
  return eventually(async () => {
    const { body } = await call('GET', `/tasks/${taskId}`);
    return ['complete', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  });
}

describe('tasks end to end over HTTP on the local runtime', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('flow');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    const aiReadiness = await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'Compliance' });
    const sales = await a('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' });
    agents = { aiReadiness: aiReadiness.body.agent_id, sales: sales.body.agent_id };
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers the health check outside /v1 without a key', async () => {
    const health = await apiClient(runtime.baseUrl.replace(/\/v1$/, ''), undefined)('GET', '/health');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  describe('agents', () => {
    it('deploys by alias under the canonical slug, once per tenant', async () => {
      const { body: list } = await a('GET', '/agents');
      expect(list.agents.map((agent: { agent_slug: string }) => agent.agent_slug).sort()).toEqual(['ai-readiness-agent', 'sales']);
      expect(list.agents.every((agent: { status: string }) => agent.status === 'active')).toBe(true);

      const again = await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness-agent', name: 'Twice' });
      expect(again.status).toBe(409);
      expect(again.headers.get('content-type')).toContain('application/problem+json');
      expect(again.body.code).toBe('agent_already_deployed');
    });

    it('rejects an unknown agent slug with 400', async () => {
      const response = await a('POST', '/agents/deploy', { agent_slug: 'hr-bot', name: 'HR' });
      expect(response).toMatchObject({ status: 400, body: { code: 'unknown_agent', status: 400 } });
    });

    it('reads an agent and its manifest by id or slug', async () => {
      const byId = await a('GET', `/agents/${agents.aiReadiness}`);
      expect(byId.body).toMatchObject({ agent_id: agents.aiReadiness, agent_slug: 'ai-readiness-agent', name: 'Compliance', config: { approval_ttl_hours: 24 } });
      const manifest = await a('GET', `/agents/${agents.sales}/manifest`);
      expect(manifest.status).toBe(200);
      const taskTypes = manifest.body.task_types.map((taskType: { task_type: string }) => taskType.task_type);
      expect(taskTypes).toEqual(expect.arrayContaining(['sales.find_leads', 'sales.enrich_leads', 'sales.pipeline_report']));
      expect(manifest.body.task_types[0].input_schema).toHaveProperty('type', 'object');
      expect((await a('GET', '/agents/ai-readiness/manifest')).body.task_types.map((t: { task_type: string }) => t.task_type)).toContain('questionnaire.respond');
    });

    it('updates approval_ttl_hours by slug and validates it', async () => {
      const updated = await a('PATCH', '/agents/sales/config', { approval_ttl_hours: 48 });
      expect(updated).toMatchObject({ status: 200, body: { agent_slug: 'sales', config: { approval_ttl_hours: 48 } } });
      expect((await a('GET', `/agents/${agents.sales}`)).body.config.approval_ttl_hours).toBe(48);
      const invalid = await a('PATCH', '/agents/sales/config', { approval_ttl_hours: 0 });
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors[0].path).toBe('body.approval_ttl_hours');
      expect((await a('PATCH', '/agents/sales/config', { colour: 'red' })).status).toBe(400);
    });

    it('does not show one tenant the agents of another', async () => {
      expect((await b('GET', '/agents')).body.agents).toEqual([]);
      expect((await b('GET', `/agents/${agents.sales}`)).status).toBe(404);
      expect((await b('PATCH', `/agents/${agents.sales}/config`, { approval_ttl_hours: 5 })).status).toBe(404);
    });
  });

  describe('running tasks', () => {
    it('slug shape: 202 queued, runs through the queue to complete, artifacts readable every way', async () => {
      const session = (await a('POST', '/sessions', { agent: 'ai-readiness' })).body.session_id;
      const created = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full', focus_framework: 'eu_ai_act' }, priority: 'high', session_id: session });
      expect(created.status).toBe(202);
      expect(created.body).toMatchObject({ agent: 'ai-readiness-agent', task_type: 'ai_readiness.full_audit', status: 'queued', priority: 'high', session_id: session, trigger: { type: 'api' } });
      expect(created.body.task_id).toMatch(/^tsk_/);
      expect(new Date(created.body.created_at).toISOString()).toBe(created.body.created_at);

      const task = await finished(a, created.body.task_id);
      expect(task.status).toBe('complete');
      expect(task.completed_at).toBeTruthy();
      expect(task.artifacts.map((artifact: { type: string }) => artifact.type).sort()).toEqual(['ai_readiness.audit_report', 'ai_readiness.gap_summary']);

      const { body: viaTask } = await a('GET', `/tasks/${task.task_id}/artifacts`);
      const report = viaTask.artifacts.find((artifact: { type: string }) => artifact.type === 'ai_readiness.audit_report');
      expect(Object.keys(report.data).sort()).toEqual(['critical', 'domains', 'eu_ai_act_score', 'gaps_found', 'recommendations']);
      expect(Object.keys(report.data.domains).sort()).toEqual(['data_governance', 'human_oversight', 'risk_classification', 'security', 'technical_documentation', 'transparency']);
      expect(Number.isInteger(report.data.eu_ai_act_score)).toBe(true);
      expect(report.data.gaps_found).toBe(report.data.recommendations.length);

      const single = await a('GET', `/artifacts/${report.artifact_id}`);
      expect(single.body).toEqual(report);
      const byQuery = await a('GET', `/artifacts?task_id=${task.task_id}`);
      expect(byQuery.body.artifacts).toEqual(viaTask.artifacts);
    });

    it('identifier shape: 201 pending, completes, and a completed task cannot be cancelled', async () => {
      const created = await a('POST', '/tasks', { agent_id: agents.aiReadiness, task_type: 'questionnaire.respond', input: { questions: [{ id: 'q1', text: 'Is customer data encrypted at rest?' }], evidence: ['encryption_at_rest'] } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'pending', agent_id: agents.aiReadiness });

      const task = await finished(a, created.body.task_id);
      expect(task.status).toBe('complete');
      const cancel = await a('POST', `/tasks/${task.task_id}/cancel`);
      expect(cancel.status).toBe(409);
      expect(cancel.body.code).toBe('task_not_cancellable');
      expect((await a('DELETE', `/tasks/${task.task_id}`)).status).toBe(409);
      const { body } = await a('GET', `/tasks/${task.task_id}/artifacts`);
      expect(body.artifacts[0].data.confidence_scores).toHaveProperty('q1');
    });

    it('runs every sales task type', async () => {
      const inputs: Record<string, unknown> = {
        'sales.find_leads': { industries: ['fintech'], limit: 5 },
        'sales.enrich_leads': { leads: [{ domain: 'unknown.example' }] },
        'sales.pipeline_report': { outreach: [{ domain: 'a.example', sent_at: '2026-01-05T09:00:00Z', opened: true, replied: false }] },
      };
      for (const [taskType, input] of Object.entries(inputs)) {
        const created = await a('POST', '/tasks', { agent: 'sales', task_type: taskType, input });
        const task = await finished(a, created.body.task_id);
        expect(task.status, `${taskType}: ${JSON.stringify(task.error)}`).toBe('complete');
        expect(task.artifacts).toHaveLength(1);
      }
    });

    it('fails input that breaks the manifest schema with malformed_input', async () => {
      const created = await a('POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads', input: { limit: 'many', unexpected: true } });
      expect(created.status).toBe(202);
      const task = await finished(a, created.body.task_id);
      expect(task.status).toBe('failed');
      expect(task.error.code).toBe('malformed_input');
      expect(task.error.details.length).toBeGreaterThan(0);
      expect(task.artifacts).toEqual([]);
    });

    it('deletes an artifact of a completed task: 204, then 404, and the task no longer lists it', async () => {
      const created = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } });
      const task = await finished(a, created.body.task_id);
      const [first, second] = task.artifacts;

      const deleted = await a('DELETE', `/artifacts/${first.artifact_id}`);
      expect(deleted.status).toBe(204);

      expect((await a('GET', `/artifacts/${first.artifact_id}`)).status).toBe(404);
      expect((await a('DELETE', `/artifacts/${first.artifact_id}`)).status).toBe(404);
      const after = await a('GET', `/tasks/${task.task_id}`);
      expect(after.body.artifacts).toEqual([second]);
      expect((await a('GET', `/tasks/${task.task_id}/artifacts`)).body.artifacts.map((x: { artifact_id: string }) => x.artifact_id)).toEqual([second.artifact_id]);
    });

    it('keeps tenants apart on every task and artifact route', async () => {
      const created = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
      const task = await finished(a, created.body.task_id);
      const artifactId = task.artifacts[0].artifact_id;

      for (const [method, path] of [
        ['GET', `/tasks/${task.task_id}`],
        ['GET', `/tasks/${task.task_id}/artifacts`],
        ['DELETE', `/tasks/${task.task_id}`],
        ['POST', `/tasks/${task.task_id}/cancel`],
        ['GET', `/artifacts/${artifactId}`],
        ['GET', `/artifacts?task_id=${task.task_id}`],
        ['DELETE', `/artifacts/${artifactId}`],
      ] as const) {
        const response = await b(method, path);
        expect(response.status, `${method} ${path}`).toBe(404);
      }
      expect((await b('GET', '/tasks')).body.tasks).toEqual([]);
      expect((await a('GET', `/artifacts/${artifactId}`)).status).toBe(200);
      const creation = await b('POST', '/tasks', { agent_id: agents.aiReadiness, task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
      expect(creation).toMatchObject({ status: 400, body: { code: 'agent_not_deployed' } });
    });
  });
});
