import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';

// Workers are off in this file: tasks stay queued, so cancellation, paging and idempotency are
// observed without racing the agents.
let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let agentId: string;

const audit = (extra: Record<string, unknown> = {}) => ({ agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' }, ...extra });

describe('queued tasks over HTTP', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('queued', { workers: false });
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    agentId = (await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness-agent', name: 'AI' })).body.agent_id;
    await a('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' });
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  describe('cancellation', () => {
    it('DELETE cancels a queued task with {cancelled: true}; a second cancel is 409', async () => {
      const { body: task } = await a('POST', '/tasks', audit());

      const cancelled = await a('DELETE', `/tasks/${task.task_id}`);

      expect(cancelled).toMatchObject({ status: 200, body: { cancelled: true } });
      expect((await a('GET', `/tasks/${task.task_id}`)).body).toMatchObject({ status: 'cancelled', artifacts: [] });
      expect((await a('DELETE', `/tasks/${task.task_id}`))).toMatchObject({ status: 409, body: { code: 'task_not_cancellable' } });
      expect((await a('POST', `/tasks/${task.task_id}/cancel`)).status).toBe(409);
    });

    it('POST /cancel answers an identifier-shaped task with the cancelled record', async () => {
      const { body: task } = await a('POST', '/tasks', { agent_id: agentId, task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
      expect(task.status).toBe('pending');

      const cancelled = await a('POST', `/tasks/${task.task_id}/cancel`);

      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ task_id: task.task_id, status: 'cancelled' });
      expect(cancelled.body.completed_at).toBeTruthy();
    });

    it('lets exactly one of many concurrent cancels win', async () => {
      const { body: task } = await a('POST', '/tasks', audit());

      const responses = await Promise.all(Array.from({ length: 6 }, (_, index) => (index % 2 ? a('DELETE', `/tasks/${task.task_id}`) : a('POST', `/tasks/${task.task_id}/cancel`))));

      expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
      expect(responses.filter((response) => response.status === 409)).toHaveLength(5);
    });

    it('answers an unknown task with 404', async () => {
      expect((await a('DELETE', '/tasks/tsk_doesnotexist')).status).toBe(404);
      expect((await a('GET', '/tasks/tsk_doesnotexist')).body.code).toBe('task_not_found');
    });
  });

  describe('listing', () => {
    it('pages newest first without gaps or duplicates, with filters', async () => {
      const created: string[] = [];
      for (let index = 0; index < 23; index++) {
        const body = index % 3 === 0 ? { agent: 'sales', task_type: 'sales.find_leads', input: {} } : audit({ priority: 'low' });
        created.push((await a('POST', '/tasks', body)).body.task_id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const { status, body } = await a('GET', `/tasks?limit=7${query}`);
        expect(status).toBe(200);
        expect(body.tasks.length).toBeLessThanOrEqual(7);
        seen.push(...body.tasks.map((task: { task_id: string }) => task.task_id));
        cursor = body.next_cursor;
        pages++;
      } while (cursor && pages < 50);

      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual([...seen].sort().reverse());
      expect(seen).toEqual(expect.arrayContaining(created));

      const salesOnly: string[] = [];
      cursor = null;
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const { body } = await a('GET', `/tasks?agent=sales&status=queued&limit=3${query}`);
        for (const task of body.tasks) {
          expect(task).toMatchObject({ agent: 'sales', status: 'queued' });
          salesOnly.push(task.task_id);
        }
        cursor = body.next_cursor;
      } while (cursor);
      expect(salesOnly.sort()).toEqual(created.filter((_, index) => index % 3 === 0).sort());
    });

    it('filters by status across pages', async () => {
      const { body } = await a('GET', '/tasks?status=cancelled&limit=100');
      expect(body.tasks.length).toBeGreaterThanOrEqual(3);
      expect(body.tasks.every((task: { status: string }) => task.status === 'cancelled')).toBe(true);
    });

    it('rejects a cursor from another listing and a forged one with 400', async () => {
      const { body } = await a('GET', '/tasks?limit=2');
      const reused = await a('GET', `/tasks?limit=2&status=queued&cursor=${encodeURIComponent(body.next_cursor)}`);
      expect(reused).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
      const forged = Buffer.from(JSON.stringify({ s: 'tasks|TENANT#other#TASKS|', k: { gsi1pk: 'TENANT#other#TASKS' } })).toString('base64url');
      expect((await a('GET', `/tasks?cursor=${forged}`)).status).toBe(400);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for a retry and creates nothing new', async () => {
      const key = `retry-${Date.now()}`;
      const first = await a('POST', '/tasks', audit({ priority: 'high' }), { 'Idempotency-Key': key });
      const second = await a('POST', '/tasks', audit({ priority: 'high' }), { 'Idempotency-Key': key });

      expect(first.status).toBe(202);
      expect(second.status).toBe(202);
      expect(second.body).toEqual(first.body);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      const { body } = await a('GET', '/tasks?limit=100&agent=ai-readiness-agent');
      expect(body.tasks.filter((task: { task_id: string }) => task.task_id === first.body.task_id)).toHaveLength(1);
    });

    it('answers the same key with a different body with 409', async () => {
      const key = `clash-${Date.now()}`;
      await a('POST', '/tasks', audit(), { 'Idempotency-Key': key });
      const clash = await a('POST', '/tasks', audit({ priority: 'low' }), { 'Idempotency-Key': key });
      expect(clash).toMatchObject({ status: 409, body: { code: 'idempotency_key_reused' } });
    });

    it('does not keep a key whose request failed, so a corrected retry goes through', async () => {
      const key = `fix-${Date.now()}`;
      const bad = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'nope.nope', input: {} }, { 'Idempotency-Key': key });
      expect(bad.status).toBe(400);
      const retry = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'nope.nope', input: {} }, { 'Idempotency-Key': key });
      expect(retry.status).toBe(400);
    });
  });

  describe('bad requests get a clear 4xx problem and change nothing', () => {
    const cases: [string, string, string, unknown, Record<string, string>, number, string][] = [
      ['malformed JSON', 'POST', '/tasks', '{"agent": ', {}, 400, 'malformed_json'],
      ['a body that is not JSON', 'POST', '/tasks', 'agent=sales', { 'Content-Type': 'text/plain' }, 415, 'unsupported_media_type'],
      ['both agent and agent_id', 'POST', '/tasks', { agent: 'sales', agent_id: 'agt_x', task_type: 'sales.find_leads', input: {} }, {}, 400, 'validation_error'],
      ['no input', 'POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads' }, {}, 400, 'validation_error'],
      ['input that is not an object', 'POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads', input: [1] }, {}, 400, 'validation_error'],
      ['an unknown priority', 'POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads', input: {}, priority: 'urgent' }, {}, 400, 'validation_error'],
      ['an unknown task type', 'POST', '/tasks', { agent: 'sales', task_type: 'sales.fly', input: {} }, {}, 400, 'unknown_task_type'],
      ['an unknown agent', 'POST', '/tasks', { agent: 'nobody', task_type: 'x.y', input: {} }, {}, 400, 'unknown_agent'],
      ['a limit above the maximum', 'GET', '/tasks?limit=101', undefined, {}, 400, 'validation_error'],
      ['a limit that is not a number', 'GET', '/tasks?limit=ten', undefined, {}, 400, 'validation_error'],
      ['an unknown status filter', 'GET', '/tasks?status=done', undefined, {}, 400, 'validation_error'],
      ['artifacts without task_id', 'GET', '/artifacts', undefined, {}, 400, 'validation_error'],
      ['an unknown route', 'GET', '/nothing-here', undefined, {}, 404, 'route_not_found'],
      ['a wrong method', 'PUT', '/tasks', undefined, {}, 404, 'route_not_found'],
      ['an oversized Idempotency-Key', 'POST', '/tasks', audit(), { 'Idempotency-Key': 'k'.repeat(300) }, 400, 'invalid_idempotency_key'],
    ];

    it.each(cases)('%s', async (_, method, path, body, headers, status, code) => {
      const before = (await a('GET', '/tasks?limit=100')).body.tasks.length;
      const response = await a(method, path, body, headers);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.body).toMatchObject({ status, code, type: expect.stringContaining(code.replace(/_/g, '-')), title: expect.any(String), detail: expect.any(String) });
      expect((await a('GET', '/tasks?limit=100')).body.tasks.length).toBe(before);
    });

    it('a body over 1 MiB is 413', async () => {
      const response = await a('POST', '/tasks', audit({ input: { scope: 'full', padding: 'x'.repeat(1024 * 1024 + 10) } }));
      expect(response).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    });

    it('a missing, malformed or unknown key is 401 problem+json', async () => {
      for (const key of [undefined, '', 'not a key', 'gh_live_unknownkeyunknownkey']) {
        const response = await apiClient(runtime.baseUrl, key)('GET', '/tasks');
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('unauthorized');
      }
    });
  });
});
