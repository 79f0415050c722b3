import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_AGENTS } from '#shared/agents/directory';
import { PROBLEM_TYPES } from '#shared/http/problem-catalog';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { rawClient } from '../support/raw-http';

/**
 * What a client can look up about the API itself (issue 13): the agents it can deploy
 * (GET /agents/catalog) and the problem types every error answer's `type` points at
 * (GET /problems, GET /problems/{code}, public like /health).
 */

let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
let a: ReturnType<typeof apiClient>;

describe('reference routes', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('reference-routes', { workers: false });
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    a = apiClient(runtime.baseUrl, runtime.keys.a);
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
  });

  describe('GET /agents/catalog', () => {
    it('lists every built-in agent with its aliases and task types before any is deployed', async () => {
      expect((await a('GET', '/agents')).body.agents).toEqual([]);

      const { status, body } = await a('GET', '/agents/catalog');

      expect(status).toBe(200);
      expect(body).toMatchObject({ has_more: false, next_cursor: null });
      expect(body.data.map((agent: { slug: string }) => agent.slug)).toEqual(BUILT_IN_AGENTS.map((agent) => agent.slug));
      expect(body.data[0]).toEqual({
        slug: 'ai-readiness-agent',
        aliases: ['ai-readiness'],
        name: 'AI Readiness Agent',
        description: expect.any(String),
        task_types: [
          { task_type: 'ai_readiness.full_audit', description: expect.any(String) },
          { task_type: 'questionnaire.respond', description: expect.any(String) },
        ],
      });
    });

    it('needs an API key, as every /agents route does', async () => {
      const response = await http.send({ method: 'GET', path: '/v1/agents/catalog', headers: {} });

      expect(response.status).toBe(401);
    });

    it('answers an unknown slug, on deploy and on a task, with the slugs that exist and where the catalog is documented', async () => {
      const deploy = await a('POST', '/agents/deploy', { agent_slug: 'ai-readyness' });
      const task = await a('POST', '/tasks', { agent: 'ai-readyness', task_type: 'ai_readiness.full_audit', input: {} });

      for (const { status, body } of [deploy, task]) {
        expect(status).toBe(400);
        expect(body.code).toBe('unknown_agent');
        expect(body.detail).toContain('ai-readiness-agent (alias ai-readiness) and sales');
        expect(body.detail).toContain('GET /v1/agents/catalog');
        expect(body.detail).toContain('docs/api.md#agents');
        expect(body.errors[0].message).toBe('not a built-in agent; must be one of: ai-readiness-agent, ai-readiness, sales');
      }
      expect(deploy.body.errors[0].path).toBe('body.agent_slug');
      expect(task.body.errors[0].path).toBe('body.agent');
    });
  });

  describe('GET /problems and GET /problems/{code}', () => {
    it('lists every problem type without an API key', async () => {
      const response = await http.send({ method: 'GET', path: '/v1/problems', headers: {} });

      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toMatch(/no-store/);
      const { data, has_more, next_cursor } = JSON.parse(response.body);
      expect({ has_more, next_cursor }).toEqual({ has_more: false, next_cursor: null });
      expect(data.map((problem: { code: string }) => problem.code)).toEqual(PROBLEM_TYPES.map((problem) => problem.code));
      expect(data.find((problem: { code: string }) => problem.code === 'rate_limited')).toEqual({
        type: '/v1/problems/rate-limited',
        code: 'rate_limited',
        title: 'Too Many Requests',
        status: 429,
        description: expect.stringContaining('Retry-After'),
      });
    });

    it("documents the `type` of an error answer at that very path of the API", async () => {
      const error = await a('GET', '/tasks/tsk_none');
      expect(error.body.type).toBe('/v1/problems/task-not-found');

      const documented = await http.send({ method: 'GET', path: error.body.type, headers: {} });

      expect(documented.status).toBe(200);
      expect(JSON.parse(documented.body)).toMatchObject({ type: error.body.type, code: error.body.code, title: error.body.title, status: error.body.status });
    });

    it('answers an unknown problem type with a 404 problem+json that is documented too', async () => {
      const response = await http.send({ method: 'GET', path: '/v1/problems/no-such-problem', headers: {} });

      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(response.body)).toMatchObject({ type: '/v1/problems/problem-type-not-found', code: 'problem_type_not_found', status: 404 });
    });
  });
});
