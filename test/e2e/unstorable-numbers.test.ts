import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { rawClient } from '../support/raw-http';
import { tableSnapshot } from '../support/table-snapshot';

/**
 * Valid JSON numbers the table cannot store as sent (issue 13): each one answered 500. Free-form
 * body fields refuse them with a 400 naming the field; task input keeps the documented rule for
 * input the agent cannot use: the task is accepted, then fails with `malformed_input`.
 */

/** Beyond Number.MAX_SAFE_INTEGER (rounded by JSON.parse), Infinity both ways, below 1e-130, 42 digits. */
const UNSTORABLE = ['9007199254740993', '1e309', '-1e309', '1e-200', '123456789012345678901234567890123456789012'];

let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
let a: ReturnType<typeof apiClient>;
let headers: Record<string, string>;
let projectId: string;

describe('numbers the table cannot store', () => {
  beforeAll(async () => {
    // Scans of a closed loopback port fail at once: no test here reaches outside the machine.
    runtime = await startTestRuntime('unstorable-numbers', { allowLoopback: true });
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    headers = { Authorization: `Bearer ${runtime.keys.a}`, 'Content-Type': 'application/json' };
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    projectId = (await a('POST', '/projects', { name: 'Site', target: 'http://127.0.0.1:9/' })).body.project_id;
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
  });

  it('in task input: the task is accepted, stores null there, and fails with malformed_input naming each path', async () => {
    const input = `{"scope":"full","big":${UNSTORABLE[0]},"inf":${UNSTORABLE[1]},"deep":{"list":[1,${UNSTORABLE[2]},{"tiny":${UNSTORABLE[3]}}]},"digits":${UNSTORABLE[4]},"fine":1e-130}`;

    const created = await http.send({ method: 'POST', path: '/v1/tasks', headers, body: `{"agent":"ai-readiness","task_type":"ai_readiness.full_audit","input":${input}}` });

    expect(created.status).toBe(202);
    const task = JSON.parse(created.body);
    expect(task.input).toEqual({ scope: 'full', big: null, inf: null, deep: { list: [1, null, { tiny: null }] }, digits: null, fine: 1e-130 });
    const failed = await eventually(async () => {
      const { body } = await a('GET', `/tasks/${task.task_id}`);
      return body.status === 'failed' ? body : undefined;
    });
    expect(failed.error.code).toBe('malformed_input');
    expect(failed.error.details.map((detail: { path: string }) => detail.path)).toEqual(['input.big', 'input.inf', 'input.deep.list.1', 'input.deep.list.2.tiny', 'input.digits']);
    expect(failed.error.details[0].message).toMatch(/cannot store exactly/);
  });

  it.each(UNSTORABLE)('in scan metadata (%s): 400 validation_error naming body.metadata.build, and nothing written', async (literal) => {
    const before = await tableSnapshot();

    const response = await http.send({ method: 'POST', path: `/v1/projects/${projectId}/scans`, headers, body: `{"detectors":["security"],"metadata":{"branch":"main","build":${literal}}}` });

    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    const problem = JSON.parse(response.body);
    expect(problem.code).toBe('validation_error');
    expect(problem.errors.map((error: { path: string }) => error.path)).toEqual(['body.metadata.build']);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('in a modified action: 400 validation_error naming the field (checked before the approval is looked up)', async () => {
    const response = await http.send({ method: 'POST', path: '/v1/approvals/apr_none/resolve', headers, body: `{"decision":"approved","modified_action":{"type":"mail.send","retries":${UNSTORABLE[0]}}}` });

    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual([{ path: 'body.modified_action.retries', message: expect.stringMatching(/cannot store exactly/) }]);
  });

  it('still accepts the numbers it can store exactly: the largest safe integer, 1e-130, zero and decimals', async () => {
    const response = await http.send({ method: 'POST', path: `/v1/projects/${projectId}/scans`, headers, body: '{"detectors":["security"],"metadata":{"a":9007199254740991,"b":-9007199254740991,"c":1e-130,"d":0,"e":-0.5,"f":1.2345678901234567}}' });

    expect(response.status).toBe(201);
    const scan = JSON.parse(response.body);
    expect((await a('GET', `/scans/${scan.scan_id}`)).body.metadata).toEqual({ a: 9007199254740991, b: -9007199254740991, c: 1e-130, d: 0, e: -0.5, f: 1.2345678901234567 });
  });
});
