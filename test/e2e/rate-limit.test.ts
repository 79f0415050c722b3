import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#shared/services/api-keys';
import { setTenantLimits } from '#shared/services/tenant-limits';
import { apiClient, startTestRuntime, type ApiResponse, type TestRuntime } from '../support/local-runtime';

// Set before the runtime reads them: a budget small enough to spend in a few requests, and a
// body limit below the 1 MiB default.
process.env.GATEHOUSE_RATE_LIMIT_PER_SECOND = '1';
process.env.GATEHOUSE_RATE_LIMIT_BURST = '5';
process.env.GATEHOUSE_MAX_BODY_BYTES = '2048';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
/** A tenant with a generous override, for the size limits. */
let c: ReturnType<typeof apiClient>;

const task = { agent: 'sales', task_type: 'sales.find_leads', input: {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends requests until one is refused (at most `max`), returning all responses. */
async function untilLimited(send: () => Promise<ApiResponse>, max = 40): Promise<ApiResponse[]> {
  const responses: ApiResponse[] = [];
  for (let attempt = 0; attempt < max; attempt++) {
    const response = await send();
    responses.push(response);
    if (response.status === 429) break;
  }
  return responses;
}

/** Sends a request again after each 429's Retry-After until it is admitted (at most 15 tries). */
async function untilAdmitted(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (let attempt = 0; attempt < 15; attempt++) {
    const response = await send();
    if (response.status !== 429) return response;
    await sleep(Number(response.headers.get('retry-after')) * 1000);
  }
  throw new Error('still rate-limited after 15 tries');
}

describe('per-tenant rate limit over HTTP', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('ratelimit', { workers: false });
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    const tenantC = `tenant-c-${Date.now()}`;
    await setTenantLimits(tenantC, { rate_per_second: '100', burst: '100', task_concurrency: undefined });
    c = apiClient(runtime.baseUrl, (await createApiKey(tenantC)).key);
    await untilAdmitted(() => a('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' }));
    await c('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' });
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers 429 problem+json with Retry-After once the burst is spent, with RateLimit fields on every response', async () => {
    await sleep(5_000); // let the deploy's spending refill: the bucket starts full

    const responses = await untilLimited(() => a('GET', '/agents'));

    const refused = responses[responses.length - 1];
    const admitted = responses.slice(0, -1);
    expect(refused.status).toBe(429);
    expect(admitted.length).toBeGreaterThanOrEqual(5);
    expect(admitted.every((response) => response.status === 200 && response.headers.get('ratelimit-limit') === '5')).toBe(true);
    // A full bucket first; later values also count the refill (1/s) while the requests ran.
    expect(admitted[0].headers.get('ratelimit-remaining')).toBe('4');
    expect(admitted.every((response) => Number(response.headers.get('ratelimit-remaining')) <= 4)).toBe(true);
    expect(Number(admitted[0].headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited', title: 'Too Many Requests' });
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('leaves another tenant’s budget whole', async () => {
    await untilLimited(() => a('GET', '/tasks'));

    const other = await b('GET', '/tasks');

    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('4');
  });

  it('writes nothing for refused requests: no task, and their Idempotency-Keys stay unused', async () => {
    await untilLimited(() => a('GET', '/agents'));

    const flood = await Promise.all(Array.from({ length: 8 }, (_, index) => a('POST', '/tasks', task, { 'Idempotency-Key': `flood-${index}` })));

    const refused = flood.map((response, index) => ({ response, key: `flood-${index}` })).filter(({ response }) => response.status === 429);
    const created = flood.filter((response) => response.status === 202);
    expect(refused.length).toBeGreaterThan(0);
    expect(created.length + refused.length).toBe(flood.length);
    const { key } = refused[0];
    const retried = await untilAdmitted(() => a('POST', '/tasks', task, { 'Idempotency-Key': key }));
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await untilAdmitted(() => a('POST', '/tasks', task, { 'Idempotency-Key': key }));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.task_id).toBe(retried.body.task_id);
    // The replay is a response like any other: fresh RateLimit fields, not the stored ones.
    expect(replayed.headers.get('ratelimit-limit')).toBe('5');
    const listed = await untilAdmitted(() => a('GET', '/tasks?limit=100'));
    expect(listed.body.tasks.map((item: { task_id: string }) => item.task_id).sort()).toEqual([...created.map((response) => response.body.task_id), retried.body.task_id].sort());
  });

  it('counts connection attempts to the event stream', async () => {
    const attempts: Response[] = [];
    for (let attempt = 0; attempt < 40; attempt++) {
      const controller = new AbortController();
      const response = await fetch(`${runtime.baseUrl}/events/stream`, { headers: { Authorization: `Bearer ${runtime.keys.b}`, Accept: 'text/event-stream' }, signal: controller.signal });
      attempts.push(response);
      controller.abort();
      if (response.status === 429) break;
    }

    const refused = attempts[attempts.length - 1];
    expect(attempts[0].status).toBe(200);
    expect(attempts[0].headers.get('ratelimit-limit')).toBe('5');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });

  it('admits exactly the burst out of 25 parallel requests, the runtime leasing tokens in batches', async () => {
    const tenant = `tenant-d-${Date.now()}`;
    await setTenantLimits(tenant, { rate_per_second: '1', burst: '10', task_concurrency: undefined });
    const d = apiClient(runtime.baseUrl, (await createApiKey(tenant)).key);
    const started = Date.now();

    const responses = await Promise.all(Array.from({ length: 25 }, () => d('GET', '/tasks')));

    const refill = Math.floor((Date.now() - started) / 1000); // 1/s: a flood slower than 1 s earns one more
    const admitted = responses.filter((response) => response.status === 200);
    expect(admitted.length).toBeGreaterThanOrEqual(10);
    expect(admitted.length).toBeLessThanOrEqual(10 + refill);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(25 - admitted.length);
    const remaining = admitted.map((response) => Number(response.headers.get('ratelimit-remaining')));
    expect([Math.min(...remaining), Math.max(...remaining)]).toEqual([0, 9]);
  });

  it('follows a tenant’s override of the limits', async () => {
    const response = await c('GET', '/agents');

    expect(response.headers.get('ratelimit-limit')).toBe('100');
  });

  describe('request size limits', () => {
    it('answers a body over GATEHOUSE_MAX_BODY_BYTES with 413 problem+json and creates nothing', async () => {
      const response = await c('POST', '/tasks', { ...task, input: { padding: 'x'.repeat(3000) } });

      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.body).toMatchObject({ code: 'payload_too_large', detail: expect.stringContaining('2048') });
      expect(response.headers.get('ratelimit-limit')).toBe('100');
      expect((await c('GET', '/tasks')).body.tasks).toEqual([]);
    });

    it('answers an overlong query string with 414 and an overlong path parameter with 400, before any lookup', async () => {
      const longQuery = await c('GET', `/tasks?cursor=${'a'.repeat(2100)}`);
      const longId = await c('GET', `/tasks/tsk_${'a'.repeat(200)}`);

      expect(longQuery).toMatchObject({ status: 414, body: { code: 'uri_too_long', status: 414, title: 'URI Too Long' } });
      expect(longId).toMatchObject({ status: 400, body: { code: 'path_parameter_too_long', errors: [{ path: 'path.task_id' }] } });
      expect(longId.headers.get('content-type')).toContain('application/problem+json');
    });
  });
});
