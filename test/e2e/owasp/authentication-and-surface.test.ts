import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import type { LocalResponseStream, ResponsePrelude } from '#lib/local/lambda-streaming';
import { mapErrorToResponse } from '#shared/http/error-mapper';
import { apiClient, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startSlackApiServer, type SlackApiServer } from '../../support/providers/slack-api-server';
import { rawClient, type RawResponse } from '../../support/raw-http';
import { authenticatedRoutes, fillPath, queryString, requiredQueries, routeKey, signedCallbackRoutes, signedCallbackSamples, validBodies } from '../../support/route-samples';
import { signedHeaders } from '../../support/slack-requests';

/**
 * OWASP API Security Top 10 (2023): API2 Broken Authentication, API5 Broken Function Level
 * Authorization, API8 Security Misconfiguration and API9 Improper Inventory Management, for every
 * route of functions/routes.ts (a route added later is covered automatically). See docs/security.md.
 */

const run = promisify(execFile);
const SLACK_BOT_TOKEN = 'xoxb-surface-0123456789';
const SIGNING_SECRET = '5f1e2d3c4b5a69788796a5b4c3d2e1f0';
let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
let slackApi: SlackApiServer;
/** A Slack integration of tenant A that only the signature tests use (API8 deletes `ids.integration_id` as it calls every route). */
let signedIntegrationId: string;
const ids: Record<string, string> = {};

function pathOf(route: (typeof routes)[number], values = ids): string {
  return `${fillPath(route, values)}${queryString(requiredQueries[routeKey(route)]?.(values) ?? {})}`;
}

/** Calls a route of the table with the given headers and the route's sample body. */
function callRoute(route: (typeof routes)[number], headers: Record<string, string>, path = pathOf(route)): Promise<RawResponse> {
  const body = validBodies[routeKey(route)];
  return http.send({ method: route.method, path, headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
}

interface SignedOptions {
  secret?: string;
  body?: string;
  /** Sent after the signature headers: replace them, or remove one with `undefined`. */
  headers?: Record<string, string | undefined>;
  /** The body the signature is made over, when it is not the body sent. */
  signedBody?: string;
  timestamp?: number;
}

/** A signed callback route's sample (or `body`), signed as Slack signs it, sent for `integrationId`. */
function sendSigned(route: (typeof routes)[number], integrationId: string, options: SignedOptions = {}): Promise<RawResponse> {
  const sample = signedCallbackSamples[routeKey(route)];
  const body = options.body ?? sample.body;
  const signature = signedHeaders(options.secret ?? SIGNING_SECRET, options.signedBody ?? body, sample.contentType, options.timestamp);
  const headers = Object.fromEntries(Object.entries({ ...signature, ...options.headers }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return http.send({ method: route.method, path: fillPath(route, { integration_id: integrationId }), headers, body });
}

function expectProblem(response: RawResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json');
  if (response.body) expect(JSON.parse(response.body)).toMatchObject({ status, code });
}

/** Runs the keys CLI (bin/keys.ts) against this runtime's table, as an operator would. */
async function keysCli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/keys.ts', ...args, '--table', process.env.TABLE_NAME!], { env: process.env, timeout: 60_000 });
  return stdout;
}

describe('OWASP API2/API5/API8/API9', () => {
  beforeAll(async () => {
    slackApi = await startSlackApiServer({ tokens: { [SLACK_BOT_TOKEN]: { team_id: 'T0SURFACE', team: 'Surface', user_id: 'U0BOT', user: 'gatehouse', bot_id: 'B0BOT' } } });
    runtime = await startTestRuntime('owasp-surface', { workers: false });
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    const a = apiClient(runtime.baseUrl, runtime.keys.a);
    // Slack integrations (a loopback Slack checks the bot token), so that the signed callback
    // routes reach their signature check instead of stopping at an unknown id.
    const connectSlack = async () => (await a('POST', '/integrations', { kind: 'slack', name: 'Surface Slack', credentials: { bot_token: SLACK_BOT_TOKEN, signing_secret: SIGNING_SECRET }, settings: { api_url: slackApi.url } })).body.integration_id;
    ids.integration_id = await connectSlack();
    signedIntegrationId = await connectSlack();
    expect([ids.integration_id, signedIntegrationId]).toEqual([expect.stringMatching(/^int_/), expect.stringMatching(/^int_/)]);
    ids.agent_id = (await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' })).body.agent_id;
    ids.task_id = (await a('POST', '/tasks', validBodies['POST /tasks'])).body.task_id;
    ids.webhook_id = (await a('POST', '/webhooks', validBodies['POST /webhooks'])).body.webhook_id;
    ids.project_id = (await a('POST', '/projects', validBodies['POST /projects'])).body.project_id;
    ids.scan_id = (await a('POST', `/projects/${ids.project_id}/scans`, { detectors: ['security'] })).body.scan_id;
    Object.assign(ids, { artifact_id: 'art_none', approval_id: 'apr_none', delivery_id: 'evt_none', finding_id: 'fnd_none', rule_id: 'none', key_id: 'key_none', user_id: 'usr_none', tenant_id: 'tenant-none', session_id: 'ses_none', trigger_id: 'trg_none', code: 'validation-error' });
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
    await slackApi?.close();
  });

  describe('API2 Broken Authentication', () => {
    const unknownKey = `gh_live_${'A'.repeat(32)}`;
    const badCredentials = (key: string): Record<string, Record<string, string>> => ({
      'no Authorization header': {},
      'an empty Authorization header': { Authorization: '' },
      'the Bearer scheme without a key': { Authorization: 'Bearer' },
      'a malformed key': { Authorization: 'Bearer not a key' },
      'an unknown well-formed key': { Authorization: `Bearer ${unknownKey}` },
      'the key with the Basic scheme': { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
      'the key with the Token scheme': { Authorization: `Token ${key}` },
      'the key without a scheme': { Authorization: key },
      'the key in X-API-Key': { 'X-API-Key': key },
      'the key with a suffix': { Authorization: `Bearer ${key}x` },
    });

    for (const route of authenticatedRoutes) {
      it(`${routeKey(route)}: missing, malformed, unknown or non-Bearer credentials are 401 problem+json`, async () => {
        for (const [label, headers] of Object.entries(badCredentials(runtime.keys.a))) {
          const response = await callRoute(route, headers);
          expect(response.status, label).toBe(401);
          expectProblem(response, 401, 'unauthorized');
        }
      });

      it(`${routeKey(route)}: a key in the query string is not accepted`, async () => {
        for (const name of ['api_key', 'access_token', 'key', 'token', 'authorization']) {
          const base = pathOf(route);
          const response = await callRoute(route, {}, `${base}${base.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(name === 'authorization' ? `Bearer ${runtime.keys.a}` : runtime.keys.a)}`);
          expect(response.status, name).toBe(401);
        }
      });
    }

    it('a key created and revoked with the keys CLI works until revoked, then is 401 on every route', async () => {
      const created = await keysCli('create', '--tenant', 'tenant-revoked');
      const key = /API key \(shown once, store it now\): (\S+)/.exec(created)?.[1];
      const keyId = JSON.parse(created.slice(0, created.indexOf('}') + 1)).key_id;
      expect(key).toMatch(/^gh_live_/);
      expectProblem(await http.send({ method: 'GET', path: '/v1/tasks/tsk_none', headers: { Authorization: `Bearer ${key}` } }), 404, 'task_not_found');

      await keysCli('revoke', keyId);

      expect(await keysCli('list', '--tenant', 'tenant-revoked')).toMatch(/\d{4}-\d\d-\d\dT/);
      for (const route of authenticatedRoutes) {
        const response = await callRoute(route, { Authorization: `Bearer ${key}` });
        expect(response.status, routeKey(route)).toBe(401);
        expectProblem(response, 401, 'unauthorized');
      }
    }, 120_000);

    // The public routes are not all static documents: the signed callbacks (Slack's interactions
    // and events) take no API key because Slack cannot send one; the signature over the body, made
    // with the integration's signing secret, is their credential, and gets API2's treatment here.
    for (const route of signedCallbackRoutes) {
      it(`${routeKey(route)}: a missing, malformed, stale, forged or misplaced Slack signature is 401 problem+json, and an API key does not stand in for one`, async () => {
        const now = Math.floor(Date.now() / 1000);
        const valid = signedHeaders(SIGNING_SECRET, signedCallbackSamples[routeKey(route)].body, signedCallbackSamples[routeKey(route)].contentType, now);
        const refused: Record<string, SignedOptions> = {
          'no signature headers': { headers: { 'X-Slack-Signature': undefined, 'X-Slack-Request-Timestamp': undefined } },
          'empty signature headers': { headers: { 'X-Slack-Signature': '', 'X-Slack-Request-Timestamp': '' } },
          'a timestamp without a signature': { headers: { 'X-Slack-Signature': undefined } },
          'a signature without a timestamp': { headers: { 'X-Slack-Request-Timestamp': undefined } },
          'a signature of another version': { headers: { 'X-Slack-Signature': valid['X-Slack-Signature'].replace(/^v0=/, 'v1=') } },
          'a signature in upper case': { headers: { 'X-Slack-Signature': valid['X-Slack-Signature'].toUpperCase() } },
          'a truncated signature': { headers: { 'X-Slack-Signature': valid['X-Slack-Signature'].slice(0, -2) } },
          'a signature with a suffix': { headers: { 'X-Slack-Signature': `${valid['X-Slack-Signature']}00` } },
          'a timestamp six minutes old': { timestamp: now - 360 },
          'a timestamp six minutes ahead': { timestamp: now + 360 },
          'a timestamp that is not whole seconds': { headers: { 'X-Slack-Request-Timestamp': `${now}.5` } },
          'the signature of another timestamp': { headers: { 'X-Slack-Request-Timestamp': String(now - 1) } },
          'a signature made with another secret': { secret: '0000000000000000deadbeefdeadbeef' },
          'the signature of another body': { signedBody: `${signedCallbackSamples[routeKey(route)].body} ` },
          'an API key instead of a signature': { headers: { 'X-Slack-Signature': undefined, 'X-Slack-Request-Timestamp': undefined, Authorization: `Bearer ${runtime.keys.a}` } },
          'the signing secret itself as a Bearer token': { headers: { 'X-Slack-Signature': undefined, 'X-Slack-Request-Timestamp': undefined, Authorization: `Bearer ${SIGNING_SECRET}` } },
        };

        for (const [label, options] of Object.entries(refused)) {
          const response = await sendSigned(route, signedIntegrationId, options);
          expect(response.status, `${label}: ${response.body}`).toBe(401);
          expectProblem(response, 401, 'unauthorized');
        }
      });

      it(`${routeKey(route)}: a correctly signed request is answered, with or without any Authorization header; an unknown integration is 404 signed or not`, async () => {
        for (const headers of [{}, { Authorization: 'Bearer not a key' }, { Authorization: `Bearer ${runtime.keys.b}` }]) {
          const response = await sendSigned(route, signedIntegrationId, { headers });
          expect(response.status, response.body).toBe(200);
        }
        for (const options of [{}, { secret: '0000000000000000deadbeefdeadbeef' }, { headers: { 'X-Slack-Signature': undefined, 'X-Slack-Request-Timestamp': undefined } }] as SignedOptions[]) {
          expectProblem(await sendSigned(route, 'int_00000000000000000000000000', options), 404, 'integration_not_found');
        }
      });
    }

    it('the scheme name is case-insensitive (RFC 9110), the key is not', async () => {
      expect((await http.send({ method: 'GET', path: '/v1/tasks', headers: { Authorization: `bearer ${runtime.keys.a}` } })).status).toBe(200);
      expect((await http.send({ method: 'GET', path: '/v1/tasks', headers: { Authorization: `Bearer ${runtime.keys.a.toUpperCase()}` } })).status).toBe(401);
    });
  });

  describe('API5 Broken Function Level Authorization', () => {
    const paths = [...new Set(routes.map((route) => route.path))];
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

    for (const path of paths) {
      const declared = routes.filter((route) => route.path === path).map((route) => route.method as string);
      it(`${path}: the methods the table does not declare (${methods.filter((method) => !declared.includes(method)).join(', ')}) are 404 route_not_found`, async () => {
        const route = routes.find((candidate) => candidate.path === path)!;
        for (const method of methods.filter((candidate) => !declared.includes(candidate))) {
          const response = await http.send({ method, path: pathOf(route), headers: { Authorization: `Bearer ${runtime.keys.a}` } });
          if (method === 'HEAD') expect(response.status).toBe(404);
          else expectProblem(response, 404, 'route_not_found');
        }
      });
    }

    it('paths outside the table (admin, keys, internals, workers) are 404 route_not_found, with or without a key', async () => {
      for (const path of ['/v1/admin', '/v1/keys', '/v1/tenants', '/v1/internal/sweep', '/v1/workers/run-task', '/v1/auth/authorize', '/v1/tasks/x/y', '/v1/debug', '/v1/.env', '/v1/metrics', '/v1/', '/v1', '/']) {
        for (const headers of [{}, { Authorization: `Bearer ${runtime.keys.a}` }] as Record<string, string>[]) {
          expectProblem(await http.send({ method: 'GET', path, headers }), 404, 'route_not_found');
          expectProblem(await http.send({ method: 'POST', path, headers }), 404, 'route_not_found');
        }
      }
    });

    it('the streaming function, invoked without the authorizer in front (a wiring mistake), refuses with 401 whatever the header says', async () => {
      const stream = routes.find((route) => route.streaming)!;
      const handler = (await loadHandler(stream.handler)) as unknown as (event: unknown, response: LocalResponseStream, context: unknown) => Promise<void>;
      const call = async (authorizer: Record<string, string> | null) => {
        let prelude: ResponsePrelude = {};
        const chunks: Buffer[] = [];
        const response = new Writable({ write: (chunk, _encoding, done) => (chunks.push(Buffer.from(chunk)), done()) }) as LocalResponseStream;
        response.setPrelude = (value) => (prelude = value);
        const finished = new Promise((resolve) => response.on('finish', resolve));
        const event = { resource: stream.path, path: stream.path, httpMethod: 'GET', headers: { Authorization: `Bearer ${runtime.keys.a}` }, queryStringParameters: null, body: null, isBase64Encoded: false, requestContext: { requestId: 'direct', authorizer } };
        await handler(event, response, lambdaContext(stream.handler, 60));
        await finished;
        return { status: prelude.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      };

      // A valid key in the header, but no caller from the authorizer: the key is not taken on trust.
      for (const authorizer of [null, {}, { tenant_id: 'tenant-x' }] as (Record<string, string> | null)[]) {
        const response = await call(authorizer);
        expect(response.status, JSON.stringify(authorizer)).toBe(401);
        expect(response.body.code).toBe('unauthorized');
      }
    });
  });

  describe('API8 Security Misconfiguration', () => {
    it('every route answers with nosniff and no-store, successes and errors alike, and names no server software', async () => {
      const responses: [string, RawResponse][] = [];
      for (const route of routes) {
        responses.push([`${routeKey(route)} as A`, await callRoute(route, { Authorization: `Bearer ${runtime.keys.a}` })]);
        responses.push([`${routeKey(route)} without a key`, await callRoute(route, {})]);
        responses.push([`${routeKey(route)} with a non-JSON body`, await http.send({ method: route.method, path: pathOf(route), headers: { Authorization: `Bearer ${runtime.keys.a}`, 'Content-Type': 'text/plain' }, body: 'x' })]);
      }
      // The signed callbacks answer their successes too: signed as Slack signs them.
      for (const route of signedCallbackRoutes) responses.push([`${routeKey(route)} signed`, await sendSigned(route, signedIntegrationId)]);
      responses.push(['unknown route', await http.send({ method: 'GET', path: '/v1/nothing', headers: {} })]);

      // Every offending answer at once, not only the first.
      const offending = responses.flatMap(([label, response]) => [
        ...(response.headers['x-content-type-options'] === 'nosniff' ? [] : [`${label} (${response.status}): X-Content-Type-Options ${response.headers['x-content-type-options']}`]),
        ...(/no-store/.test(String(response.headers['cache-control'])) ? [] : [`${label} (${response.status}): Cache-Control ${response.headers['cache-control']}`]),
        ...(response.headers['x-powered-by'] === undefined && response.headers.server === undefined ? [] : [`${label}: names its server`]),
      ]);
      expect(offending).toEqual([]);
    });

    it('CORS is not open: preflights are not answered and no route grants a cross-origin read', async () => {
      for (const route of routes) {
        const preflight = await http.send({ method: 'OPTIONS', path: pathOf(route), headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': route.method, 'Access-Control-Request-Headers': 'authorization' } });
        const read = await callRoute(route, { Authorization: `Bearer ${runtime.keys.a}`, Origin: 'https://evil.example' });
        expect(preflight.status, routeKey(route)).toBe(404);
        for (const response of [preflight, read]) {
          expect(response.headers['access-control-allow-origin'], routeKey(route)).toBeUndefined();
          expect(response.headers['access-control-allow-credentials'], routeKey(route)).toBeUndefined();
        }
      }
    });

    it('an unexpected error answers 500 with a request id only: no message, stack, file or dependency name', () => {
      const error = new TypeError("Cannot read properties of undefined (reading 'pk') at /var/task/shared/adapters/dynamodb/task-repository.ts:42");
      (error as { $metadata?: unknown }).$metadata = { httpStatusCode: 400 };

      const originalError = console.error;
      console.error = () => undefined;
      let response;
      try {
        response = mapErrorToResponse(error, 'req-123');
      } finally {
        console.error = originalError;
      }

      expect(response.statusCode).toBe(500);
      expect(JSON.parse(response.body)).toEqual({ type: '/v1/problems/internal-error', title: 'Internal Server Error', status: 500, code: 'internal_error', detail: expect.stringContaining('req-123') });
      expect(response.body).not.toMatch(/task-repository|\.ts|pk|TypeError|Cannot read|dynamodb/i);
      expect(response.headers).toMatchObject({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    });

    it('error answers for bad input carry no stack trace or internal key', async () => {
      const bodies: string[] = [];
      for (const route of authenticatedRoutes.filter((candidate) => candidate.method !== 'GET')) {
        for (const body of ['{"a":', '[]', '{"__proto__":{}}', JSON.stringify({ ...validBodies[routeKey(route)], zz: 1 })]) {
          const response = await http.send({ method: route.method, path: pathOf(route), headers: { Authorization: `Bearer ${runtime.keys.a}`, 'Content-Type': 'application/json' }, body });
          expect(response.status, `${routeKey(route)} ${body}`).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          bodies.push(response.body);
        }
      }
      // The signed callbacks read their bodies only once the signature holds: bad bodies, signed.
      for (const route of signedCallbackRoutes) {
        for (const body of ['{"a":', '[]', '{"__proto__":{}}', 'payload=%7B', 'payload=null', '{"type":"event_callback"}', '{"type":"url_verification"}', '']) {
          const response = await sendSigned(route, signedIntegrationId, { body });
          expect(response.status, `${routeKey(route)} ${body}`).toBeLessThan(500);
          if (response.status >= 400) bodies.push(response.body);
        }
      }
      for (const body of bodies) expect(body).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|TENANT#|ValidationException|DynamoDB/);
    });
  });

  describe('API9 Improper Inventory Management', () => {
    for (const route of routes) {
      it(`${routeKey(route)} answers under /v1 only: other versions and prefixes are 404`, async () => {
        const path = pathOf(route);
        const unversioned = route.unversioned ? path : path.slice('/v1'.length);
        const others = route.unversioned ? [`/v1${path}`, `/v2${path}`] : ['/v2', '/v0', '/V1', '', '/v1.0', '/v1.1', '/api/v1', '/v1/v1', '/latest', '/beta'].map((prefix) => `${prefix}${unversioned}`);
        for (const other of others) {
          const response = await callRoute(route, { Authorization: `Bearer ${runtime.keys.a}` }, other);
          expect(response.status, other).toBe(404);
          expect(JSON.parse(response.body).code, other).toBe('route_not_found');
        }
      });
    }
  });
});
