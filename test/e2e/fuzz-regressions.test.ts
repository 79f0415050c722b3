import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { rawClient } from '../support/raw-http';
import { tableSnapshot } from '../support/table-snapshot';

/**
 * The concrete inputs that fuzz-routes.test.ts and the OWASP walk-through found failing, each
 * pinned as a regression test with the answer it gets since its fix.
 */

let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
let auth: Record<string, string>;

describe('regressions found by fuzzing', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('fuzz-regressions', { workers: false });
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    auth = { Authorization: `Bearer ${runtime.keys.a}`, 'Content-Type': 'application/json' };
    await http.send({ method: 'POST', path: '/v1/agents/deploy', headers: auth, body: '{"agent_slug":"ai-readiness"}' });
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
  });

  it('query parameters and headers named __proto__, constructor or toString no longer crash the local gateway (was 500)', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const query = await http.send({ method: 'GET', path: `/v1/tasks?${name}=1&${name}=2`, headers: auth });
      const header = await http.send({ method: 'GET', path: '/v1/tasks', headers: { ...auth, [name]: 'x' } });
      expect([query.status, header.status], name).toEqual([200, 200]);
    }
  });

  it('a request line over 16 KiB gets a problem+json 431 instead of a bare status line', async () => {
    const response = await http.send({ method: 'GET', path: `/v1/tasks?cursor=${'x'.repeat(20_000)}`, headers: auth });

    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(response.body).code).toBe('headers_too_large');
  });

  it('a method a static resource lacks is route_not_found, not the sibling {variable} route (GET /agents/deploy)', async () => {
    const response = await http.send({ method: 'GET', path: '/v1/agents/deploy', headers: auth });

    expect(response.status).toBe(404);
    expect(JSON.parse(response.body).code).toBe('route_not_found');
  });

  it('JSON keys that broke the store (constructor: was 500) or a copy (__proto__) are 400 at any depth, and nothing is written', async () => {
    const before = await tableSnapshot();
    for (const input of ['{"constructor":"x"}', '{"a":[{"constructor":{"name":"Map"}}]}', '{"a":{"__proto__":{"x":1}}}']) {
      const response = await http.send({ method: 'POST', path: '/v1/tasks', headers: auth, body: `{"agent":"ai-readiness","task_type":"ai_readiness.full_audit","input":${input}}` });
      expect(response.status, input).toBe(400);
    }
    expect(await tableSnapshot()).toEqual(before);
  });

  it('task input over 256 KiB is 400 body.input (was a 500 from the 400 KB item limit)', async () => {
    const response = await http.send({ method: 'POST', path: '/v1/tasks', headers: auth, body: JSON.stringify({ agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { blob: 'x'.repeat(300 * 1024) } }) });

    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).errors[0].path).toBe('body.input');
  });

  it('a modified action over 64 KiB is 400 (it would be stored in the approval item)', async () => {
    const response = await http.send({ method: 'POST', path: '/v1/approvals/apr_none/resolve', headers: auth, body: JSON.stringify({ decision: 'approved', modified_action: { type: 'mail.send', body: 'x'.repeat(70 * 1024) } }) });

    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).errors[0].path).toBe('body.modified_action');
  });

  it('a body sent to a route that takes none is 400 instead of being ignored; {} is still accepted', async () => {
    const refused = await http.send({ method: 'POST', path: '/v1/tasks/tsk_none/cancel', headers: auth, body: '{"status":"complete"}' });
    const empty = await http.send({ method: 'POST', path: '/v1/tasks/tsk_none/cancel', headers: auth, body: '{}' });

    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).errors).toEqual([{ path: 'body', message: 'this route takes no request body' }]);
    expect(empty.status).toBe(404);
  });
});
