import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import type { LocalResponseStream, ResponsePrelude } from '#lib/local/lambda-streaming';
import { mapErrorToResponse } from '#shared/http/error-mapper';
import { apiClient, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { rawClient, type RawResponse } from '../../support/raw-http';
import { authenticatedRoutes, fillPath, queryString, requiredQueries, routeKey, validBodies } from '../../support/route-samples';

/**
 * OWASP API Security Top 10 (2023): API2 Broken Authentication, API5 Broken Function Level
 * Authorization, API8 Security Misconfiguration and API9 Improper Inventory Management, for every
 * route of functions/routes.ts (a route added later is covered automatically). See docs/security.md.
 */

const run = promisify(execFile);
let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
const ids: Record<string, string> = {};

function pathOf(route: (typeof routes)[number], values = ids): string {
  return `${fillPath(route, values)}${queryString(requiredQueries[routeKey(route)]?.(values) ?? {})}`;
}

/** Calls a route of the table with the given headers and the route's sample body. */
function callRoute(route: (typeof routes)[number], headers: Record<string, string>, path = pathOf(route)): Promise<RawResponse> {
  const body = validBodies[routeKey(route)];
  return http.send({ method: route.method, path, headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
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
    runtime = await startTestRuntime('owasp-surface', { workers: false });
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    const a = apiClient(runtime.baseUrl, runtime.keys.a);
    ids.agent_id = (await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' })).body.agent_id;
    ids.task_id = (await a('POST', '/tasks', validBodies['POST /tasks'])).body.task_id;
    ids.webhook_id = (await a('POST', '/webhooks', validBodies['POST /webhooks'])).body.webhook_id;
    ids.project_id = (await a('POST', '/projects', validBodies['POST /projects'])).body.project_id;
    ids.scan_id = (await a('POST', `/projects/${ids.project_id}/scans`, { detectors: ['security'] })).body.scan_id;
    Object.assign(ids, { artifact_id: 'art_none', approval_id: 'apr_none', delivery_id: 'evt_none', finding_id: 'fnd_none', rule_id: 'none', key_id: 'key_none', user_id: 'usr_none', session_id: 'ses_none', trigger_id: 'trg_none', code: 'validation-error' });
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
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

    it('the streaming function, called as its Function URL calls it, answers other methods and paths as the gateway does', async () => {
      const stream = routes.find((route) => route.streaming)!;
      const handler = (await loadHandler(stream.handler)) as unknown as (event: unknown, response: LocalResponseStream, context: unknown) => Promise<void>;
      const call = async (method: string, rawPath: string) => {
        let prelude: ResponsePrelude = {};
        const chunks: Buffer[] = [];
        const response = new Writable({ write: (chunk, _encoding, done) => (chunks.push(Buffer.from(chunk)), done()) }) as LocalResponseStream;
        response.setPrelude = (value) => (prelude = value);
        const finished = new Promise((resolve) => response.on('finish', resolve));
        await handler({ version: '2.0', rawPath, rawQueryString: '', headers: { authorization: `Bearer ${runtime.keys.a}` }, requestContext: { http: { method, path: rawPath } } }, response, lambdaContext(stream.handler, 60));
        await finished;
        return { status: prelude.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      };

      for (const [method, path] of [['POST', '/v1/events/stream'], ['DELETE', '/v1/events/stream'], ['GET', '/v1/admin'], ['GET', '/v2/events/stream'], ['GET', '/']]) {
        const response = await call(method, path);
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.body.code).toBe('route_not_found');
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
      responses.push(['unknown route', await http.send({ method: 'GET', path: '/v1/nothing', headers: {} })]);

      for (const [label, response] of responses) {
        expect(response.headers['x-content-type-options'], label).toBe('nosniff');
        expect(String(response.headers['cache-control']), label).toMatch(/no-store/);
        expect(response.headers['x-powered-by'], label).toBeUndefined();
        expect(response.headers.server, label).toBeUndefined();
      }
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
