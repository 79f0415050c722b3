import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhook, MAX_RESPONSE_BYTES } from '#shared/adapters/http/deliver-webhook';
import { fetchPage, httpCrawlOptions } from '#shared/adapters/http/fetch-page';
import { crawl, MAX_REDIRECTS } from '#shared/scans/crawler/crawl';
import { MAX_BODY_DEPTH } from '#shared/http/json-body';
import { apiClient, eventually, scanEnded, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startHostileServer, type Behaviour, type HostileServer } from '../../support/hostile-server';
import { startSlackApiServer, type SlackApiServer } from '../../support/providers/slack-api-server';
import { rawClient } from '../../support/raw-http';
import { authenticatedRoutes, fillPath, keyFor, queryString, requiredQueries, routeKey, signedCallbackRoutes, signedCallbackSamples, validBodies } from '../../support/route-samples';
import { deployCustomAgent } from '../../support/custom-agent';
import { signedHeaders } from '../../support/slack-requests';
import { tableSnapshot } from '../../support/table-snapshot';

/**
 * OWASP API Security Top 10 (2023): API4 Unrestricted Resource Consumption (what one request
 * may make the service do) and API10 Unsafe Consumption of APIs (what the scanner and the webhook
 * deliverer read from third parties). See docs/security.md. (API4's per-tenant rate limit with
 * 429 is tested with the rate limiter.)
 */

const SLACK_BOT_TOKEN = 'xoxb-resources-0123456789';
const SIGNING_SECRET = '9a8b7c6d5e4f30211203f4e5d6c7b8a9';
let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let http: ReturnType<typeof rawClient>;
let slackApi: SlackApiServer;
let agentKey: string;
const ids: Record<string, string> = {};
const servers: HostileServer[] = [];

async function hostile(behaviour: (path: string) => Behaviour): Promise<HostileServer> {
  const server = await startHostileServer((request) => behaviour(request.url ?? '/'));
  servers.push(server);
  return server;
}

/**
 * Lists that take no `limit`, and what bounds them instead. Every other GET route whose answer
 * pages (carries `next_cursor`) must refuse a `limit` above its maximum.
 */
const unpagedLists: Record<string, string> = {
  'GET /agents': 'the built-in agent catalogue',
  'GET /agents/catalog': 'the built-in agents, a fixed handful',
  'GET /problems': 'the problem catalogue, fixed in the code',
  'GET /webhooks': 'MAX_WEBHOOKS_PER_TENANT subscriptions per tenant',
  'GET /artifacts': "one task's artifacts, a handful per task type",
  'GET /tasks/{task_id}/artifacts': "one task's artifacts, a handful per task type",
  'GET /me/invitations': "a person's pending invitations: one per tenant at most, and only the deployment's operators create tenants",
};

describe('OWASP API4/API10', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('owasp-resources');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    ids.agent_id = (await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' })).body.agent_id;
    agentKey = (await deployCustomAgent(runtime.baseUrl, runtime.keys.a)).agentKey;
    ids.task_id = (await a('POST', '/tasks', validBodies['POST /tasks'])).body.task_id;
    // Subscribed to an event nothing here causes: a delivery retried in the middle of a test would change the table it snapshots.
    ids.webhook_id = (await a('POST', '/webhooks', { ...validBodies['POST /webhooks'], events: ['integration.revoked'] })).body.webhook_id;
    ids.project_id = (await a('POST', '/projects', validBodies['POST /projects'])).body.project_id;
    ids.scan_id = (await a('POST', `/projects/${ids.project_id}/scans`, { detectors: ['security'] })).body.scan_id;
    Object.assign(ids, { artifact_id: 'art_none', approval_id: 'apr_none', delivery_id: 'evt_none', finding_id: 'fnd_none', rule_id: 'none', key_id: 'key_none', user_id: 'usr_none', tenant_id: 'tenant-none', session_id: 'ses_none', trigger_id: 'trg_none' });
    // A real Slack integration (checked with a loopback Slack), so the signed callbacks reach their signature check.
    slackApi = await startSlackApiServer({ tokens: { [SLACK_BOT_TOKEN]: { team_id: 'T0RESOURCES', team: 'Resources', user_id: 'U0BOT', user: 'gatehouse', bot_id: 'B0BOT' } } });
    const slack = await a('POST', '/integrations', { kind: 'slack', name: 'Resources Slack', credentials: { bot_token: SLACK_BOT_TOKEN, signing_secret: SIGNING_SECRET }, settings: { api_url: slackApi.url } });
    expect(slack.status, JSON.stringify(slack.body)).toBe(201);
    ids.integration_id = slack.body.integration_id;
    await eventually(async () => (['completed', 'failed'].includes((await a('GET', `/scans/${ids.scan_id}`)).body.status) ? true : undefined), 60_000, 250);
  }, 120_000);

  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
    await slackApi?.close();
  });

  describe('API4 Unrestricted Resource Consumption', () => {
    for (const route of authenticatedRoutes.filter((candidate) => candidate.method === 'GET' && !candidate.streaming)) {
      it(`${routeKey(route)}: a page size above the maximum, zero, negative or not a number is 400`, async () => {
        const path = fillPath(route, ids).slice('/v1'.length);
        const base = requiredQueries[routeKey(route)]?.(ids) ?? {};
        const plain = await a('GET', `${path}${queryString(base)}`);
        if (plain.status === 404 || !(plain.body && typeof plain.body === 'object' && 'next_cursor' in plain.body) || unpagedLists[routeKey(route)]) return;

        for (const limit of ['1000000', '0', '-1', 'abc', '1e309', '99999999999999999999']) {
          const response = await a('GET', `${path}${queryString({ ...base, limit })}`);
          expect(response.status, `limit=${limit}`).toBe(400);
          expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'query.limit' })]));
        }
      });
    }

    it('every list route that answers without paging is one whose size something else bounds', async () => {
      for (const route of authenticatedRoutes.filter((candidate) => candidate.method === 'GET' && !candidate.streaming)) {
        const path = fillPath(route, ids).slice('/v1'.length);
        const response = await a('GET', `${path}${queryString(requiredQueries[routeKey(route)]?.(ids) ?? {})}`);
        const pagesWithLimit = (await a('GET', `${path}${queryString({ ...(requiredQueries[routeKey(route)]?.(ids) ?? {}), limit: '1000000' })}`)).status === 400;
        if (response.status === 200 && response.body && 'next_cursor' in response.body && !pagesWithLimit) expect(unpagedLists, routeKey(route)).toHaveProperty(routeKey(route));
      }
    });

    it(`a tenant's webhook subscriptions are capped, which bounds GET /webhooks and each event's fan-out`, async () => {
      const created: string[] = [];
      let refused;
      for (let index = 0; index < 60 && !refused; index++) {
        const response = await a('POST', '/webhooks', { ...validBodies['POST /webhooks'], url: `https://hooks.example.com/${index}` });
        if (response.status === 201) created.push(response.body.webhook_id);
        else refused = response;
      }

      expect(refused?.status).toBe(409);
      expect(refused?.body.code).toBe('webhook_limit_reached');
      expect((await a('GET', '/webhooks')).body.webhooks.length).toBeLessThan(60);
      for (const id of created) await a('DELETE', `/webhooks/${id}`);
    });

    for (const route of authenticatedRoutes.filter((candidate) => candidate.method !== 'GET')) {
      it(`${routeKey(route)}: a body over 1 MiB is 413 problem+json and writes nothing`, async () => {
        const before = await tableSnapshot();
        const body = JSON.stringify({ ...validBodies[routeKey(route)], padding: 'x'.repeat(1024 * 1024) });

        const response = await http.send({ method: route.method, path: fillPath(route, ids), headers: { Authorization: `Bearer ${keyFor(route, { admin: runtime.keys.a, agent: agentKey })}`, 'Content-Type': 'application/json' }, body });

        expect(response.status).toBe(413);
        expect(response.headers['content-type']).toBe('application/problem+json');
        expect(JSON.parse(response.body).code).toBe('payload_too_large');
        expect(await tableSnapshot()).toEqual(before);
      });
    }

    // The signed callbacks take no key, so anyone can send them a body: the limit matters most there.
    // Unsigned, and signed with the integration's own secret (the body is refused for its size, not its signature).
    for (const route of signedCallbackRoutes) {
      it(`${routeKey(route)}: a body over 1 MiB is 413 problem+json, signed or not, up to the gateway's own limit, and writes nothing`, async () => {
        const before = await tableSnapshot();
        const { contentType } = signedCallbackSamples[routeKey(route)];
        const failures: string[] = [];
        for (const size of [1024 * 1024 + 1, 8 * 1024 * 1024]) {
          const body = contentType === 'application/json' ? JSON.stringify({ type: 'url_verification', challenge: 'c', padding: 'x'.repeat(size) }) : `payload=${'x'.repeat(size)}`;
          for (const [label, headers] of [
            ['unsigned', { 'Content-Type': contentType }],
            ['signed', signedHeaders(SIGNING_SECRET, body, contentType)],
          ] as const) {
            const response = await http.send({ method: route.method, path: fillPath(route, ids), headers, body });
            const code = response.headers['content-type'] === 'application/problem+json' ? JSON.parse(response.body).code : response.body.slice(0, 80);
            if (response.status !== 413 || code !== 'payload_too_large') failures.push(`${label}, ${Buffer.byteLength(body)} bytes: ${response.status} ${code}`);
          }
        }

        expect(failures).toEqual([]);
        expect(await tableSnapshot()).toEqual(before);
      }, 60_000);
    }

    it(`a tenant's integrations are capped, which bounds GET /integrations and every connect's and approval's walk over them`, async () => {
      const created: string[] = [];
      let refused;
      for (let index = 0; index < 60 && !refused; index++) {
        const response = await a('POST', '/integrations', { ...validBodies['POST /integrations'], name: `Mail ${index}` });
        if (response.status === 201) created.push(response.body.integration_id);
        else refused = response;
      }

      expect(refused?.status).toBe(409);
      expect(refused?.body.code).toBe('integration_limit_reached');
      expect((await a('GET', '/integrations?limit=100')).body.integrations.length).toBeLessThan(60);
      for (const id of created) expect((await a('DELETE', `/integrations/${id}`)).status).toBe(204);
    }, 60_000);

    it('a body far over the limit is refused by the gateway without reading it all', async () => {
      const response = await http.send({ method: 'POST', path: '/v1/tasks', headers: { Authorization: `Bearer ${runtime.keys.a}`, 'Content-Type': 'application/json' }, body: Buffer.alloc(12 * 1024 * 1024, 0x20) }).catch((error: Error) => error);

      // The gateway answers 413 and stops reading; the client may see the answer or a reset.
      if (!(response instanceof Error)) expect(response.status).toBe(413);
      expect((await a('GET', '/tasks')).status).toBe(200);
    });

    it(`JSON nested deeper than ${MAX_BODY_DEPTH} levels is 400 (shallow nesting is fine), before anything is stored`, async () => {
      const before = await tableSnapshot();
      const nest = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      for (const depth of [MAX_BODY_DEPTH, 40, 100_000]) {
        const response = await a('POST', '/tasks', `{"agent":"ai-readiness","task_type":"ai_readiness.full_audit","input":${nest(depth)}}`);
        expect(response.status, `depth ${depth}`).toBe(400);
        expect(response.body.code).toBe('malformed_json');
      }
      expect(await tableSnapshot()).toEqual(before);

      const shallow = await a('POST', '/tasks', `{"agent":"ai-readiness","task_type":"ai_readiness.full_audit","input":${nest(MAX_BODY_DEPTH - 3)}}`);
      expect(shallow.status).toBe(202);
      // let it run out, so that later snapshots see a quiet table
      await eventually(async () => (['complete', 'failed'].includes((await a('GET', `/tasks/${shallow.body.task_id}`)).body.status) ? true : undefined), 30_000, 200);
    });

    it('task input too large to store is refused with 4xx instead of failing at the database', async () => {
      const before = await tableSnapshot();
      for (const input of [{ blob: 'x'.repeat(600 * 1024) }, { items: Array.from({ length: 90_000 }, (_, index) => index) }]) {
        const response = await a('POST', '/tasks', { ...validBodies['POST /tasks'], input });
        expect(response.status).toBe(400);
        expect(response.body.errors).toEqual([{ path: 'body.input', message: expect.stringContaining('at most') }]);
      }
      expect(await tableSnapshot()).toEqual(before);
    });

    it('an Idempotency-Key over 255 characters is 400', async () => {
      const response = await a('POST', '/tasks', validBodies['POST /tasks'], { 'Idempotency-Key': 'k'.repeat(256) });

      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_idempotency_key');
    });
  });

  describe('API10 Unsafe Consumption of APIs', () => {
    const crawlOptions = { maxPages: 3, maxBytes: 20_000, timeoutMs: 1_500, allowLoopback: true };

    it('the scanner keeps at most max_page_bytes of an endless body and hangs up', async () => {
      const server = await hostile(() => ({ kind: 'endless_body' }));

      const outcome = await fetchPage(server.url, crawlOptions);

      expect(outcome.ok).toBe(true);
      if (outcome.ok) {
        expect(outcome.page.truncated).toBe(true);
        expect(Buffer.byteLength(outcome.page.body)).toBeLessThanOrEqual(crawlOptions.maxBytes);
      }
      await eventually(async () => (server.abandoned === 1 ? true : undefined), 5_000, 50);
    });

    it('the scanner gives up on an answer that never comes or trickles forever, within its deadline', async () => {
      const silent = await hostile(() => ({ kind: 'never_answer' }));
      const trickle = await hostile(() => ({ kind: 'trickle_body', intervalMs: 100 }));

      const [none, slow] = await Promise.all([fetchPage(silent.url, crawlOptions), fetchPage(trickle.url, crawlOptions)]);

      expect(none).toMatchObject({ ok: false, reason: 'timeout' });
      expect(slow).toMatchObject({ ok: false, reason: 'timeout' });
    });

    it('the scanner refuses oversized response headers as an unreachable page', async () => {
      const server = await hostile(() => ({ kind: 'huge_headers' }));

      const outcome = await fetchPage(server.url, crawlOptions);

      expect(outcome).toMatchObject({ ok: false, reason: 'unreachable' });
    });

    it(`the scanner stops a redirect loop after ${MAX_REDIRECTS} hops`, async () => {
      const server = await hostile((path) => ({ kind: 'redirect', location: path === '/a' ? '/b' : '/a' }));

      const result = await crawl(`${server.url}a`, httpCrawlOptions(crawlOptions));

      // The loop is cut twice: once reading robots.txt (which the server also redirects), once for the page.
      expect(server.requests.length).toBe(2 * (MAX_REDIRECTS + 1));
      expect(result.pages.length).toBeLessThanOrEqual(1);
    });

    it('the webhook deliverer reads at most a bounded part of an endless answer, and records the delivery', async () => {
      const server = await hostile(() => ({ kind: 'endless_body', chunkBytes: 16 * 1024 }));

      const result = await deliverWebhook({ url: `${server.url}hook`, body: '{}', headers: {}, allowLoopback: true, timeoutMs: 2_000 });

      expect(result).toMatchObject({ ok: true, statusCode: 200 });
      await eventually(async () => (server.abandoned === 1 ? true : undefined), 5_000, 50);
      // what the server managed to push into socket buffers before the hang-up, not what we kept
      expect(server.bytesSent).toBeLessThan(MAX_RESPONSE_BYTES * 64);
    });

    it('the webhook deliverer does not wait past its deadline for a receiver that never answers', async () => {
      const server = await hostile(() => ({ kind: 'never_answer' }));

      const result = await deliverWebhook({ url: `${server.url}hook`, body: '{}', headers: {}, allowLoopback: true, timeoutMs: 500 });

      expect(result).toMatchObject({ ok: false, failure: 'timeout' });
    });

    it('the webhook deliverer does not follow a redirect', async () => {
      const elsewhere = await hostile(() => ({ kind: 'never_answer' }));
      const server = await hostile(() => ({ kind: 'redirect', status: 307, location: `${elsewhere.url}stolen` }));

      const result = await deliverWebhook({ url: `${server.url}hook`, body: '{}', headers: {}, allowLoopback: true, timeoutMs: 1_000 });

      expect(result).toMatchObject({ ok: false, statusCode: 307, failure: 'http_status' });
      expect(elsewhere.connections).toBe(0);
    });

    it('end to end: a scan of a site with an endless page completes, and a receiver with an endless answer gets its delivery recorded', async () => {
      const site = await hostile(() => ({ kind: 'endless_body' }));
      const receiver = await hostile(() => ({ kind: 'endless_body', chunkBytes: 16 * 1024 }));
      const project = await a('POST', '/projects', { name: 'Endless', target: site.url, crawl: { max_pages: 2, timeout_seconds: 2, max_page_bytes: 10_000 } });
      const hook = await a('POST', '/webhooks', { url: `${receiver.url}hook`, events: ['task.complete'], secret: 'whsec-endless-0123456789' });

      const scan = await a('POST', `/projects/${project.body.project_id}/scans`, { detectors: ['security'] });
      const task = await a('POST', '/tasks', validBodies['POST /tasks']);

      const finished = await scanEnded(a, scan.body.scan_id, 60_000);
      expect(finished.status).toBe('completed');
      const deliveries = await eventually(async () => {
        const { body } = await a('GET', `/webhooks/${hook.body.webhook_id}/deliveries`);
        return body.deliveries.find((delivery: any) => delivery.status === 'succeeded');
      }, 30_000, 250);
      expect(deliveries.attempts[0]).toMatchObject({ status_code: 200 });
      await a('DELETE', `/webhooks/${hook.body.webhook_id}`);
      expect(task.status).toBe(202);
    });
  });
});
