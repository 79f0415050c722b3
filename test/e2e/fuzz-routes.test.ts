import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '#functions/routes';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { rawClient, type RawRequest, type RawResponse } from '../support/raw-http';
import { fillPath, pathParams, requiredQueries, routeKey, validBodies } from '../support/route-samples';
import { tableSnapshot } from '../support/table-snapshot';

/**
 * Property-based fuzzing of every route of functions/routes.ts (issue 5): malformed bodies,
 * queries, headers and path identifiers. Every response must be below 500 and a problem+json
 * when it is an error, and nothing may be written: the table is snapshotted before and after.
 *
 * Only invalid requests are generated for routes that write. Each such request is broken on
 * purpose in at least one dimension that the service must refuse (see `Breakage`), while the
 * other dimensions vary freely, valid or not; so any 2xx on a writing route is a failure too
 * (either the service accepted bad input or it wrote). Reading routes get free-form requests
 * (a GET that happens to be valid may answer 200; it writes nothing either way).
 *
 * Size: FUZZ_RUNS runs per route (default 30), each a batch of BATCH requests sent concurrently
 * on one runtime, so about routes × FUZZ_RUNS × BATCH requests in total; the count is printed.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const BATCH = 4;
const MIB = 1024 * 1024;

let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
/** Ids of tenant A's records that exist; for the others, ids that look right but exist nowhere. */
const ids: Record<string, string> = {
  artifact_id: 'art_01JZZZZZZZZZZZZZZZZZZZZZZZ',
  approval_id: 'apr_01JZZZZZZZZZZZZZZZZZZZZZZZ',
  delivery_id: 'evt_01jzzzzzzzzzzzzzzzzzzzzzzz',
  finding_id: 'fnd_01JZZZZZZZZZZZZZZZZZZZZZZZ',
  rule_id: 'security.missing-hsts',
};
/** Real next_cursor values of A's listings, to derive tampered cursors from. */
const realCursors: string[] = [];
let before: string[];
let sent = 0;
const statuses = new Map<number, number>();

/** Which part of a request to a writing route is broken on purpose. */
type Breakage = 'auth' | 'body' | 'content_type' | 'path_id';

const printableLatin1 = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((code) => String.fromCharCode(code));
const headerValue = fc.string({ unit: printableLatin1, maxLength: 300 });

function safeEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as a client that escapes bytes would send it
  }
}

/** Path segments that name nothing that exists, in every shape that has broken a router. */
const unknownSegment = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).map(safeEncode),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }).map(safeEncode),
  fc.integer({ min: 65, max: 4000 }).map((length) => 'x'.repeat(length)),
  fc.constantFrom('', '..', '.', '%2e%2e', '%2E', '%00', 'a%00b', '%2F', '..%2F..%2Fetc%2Fpasswd', '%zz', '%', '%ED%A0%80', '%C0%AF', '%EF%BF%BF', '~', '*', '%20', '+', '%25', 'null', 'undefined', '0', '-1', '__proto__', 'constructor', 'TENANT%23x', 'x%23TASK%23y', '%F0%9F%92%A9', ';', "'%20OR%201=1", '$where', '%7B%7D'),
);

const badTokens = fc.oneof(
  fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic Z2g6a2V5', 'Token abc', 'Bearer gh_live_', 'Bearer null', 'Bearer a b', 'Bearer \u00ff\u00fe', 'Bearer ' + 'k'.repeat(300), 'Digest username="x"', 'Bearer gh_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
  headerValue.filter((value) => !/^\s*bearer\s+gh_test_/i.test(value)),
);

const nonJsonTypes = fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'text/json', 'application/jsonp', 'application/octet-stream', 'json', '*/*', 'application/', 'text/html; charset=utf-8', 'application/json5');
const anyContentType = fc.oneof(nonJsonTypes, fc.constantFrom('application/json', 'APPLICATION/JSON', 'application/json; charset=utf-16', 'application/merge-patch+json', 'application/problem+json', 'application/json;;;', 'application/vnd.api+json'), headerValue);

const queryKeys = fc.oneof(
  fc.constantFrom('limit', 'cursor', 'status', 'agent', 'task_id', 'type', 'types', 'after', 'before', 'format', 'detector', 'severity', 'last_event_id', 'api_key', 'access_token', '__proto__', 'constructor', 'limit[]', 'limit[$gt]'),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

function tamperedCursors(): fc.Arbitrary<string> {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  const decoded = realCursors.map((cursor) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s: string; k: Record<string, string> });
  return fc.oneof(
    fc.base64String({ maxLength: 200 }),
    fc.jsonValue({ maxDepth: 3 }).map(encode),
    fc.constantFrom(...realCursors),
    fc.constantFrom(...decoded).chain((cursor) =>
      fc.oneof(
        // the listing's own scope and partition, with a key DynamoDB would not take
        fc.record({ extra: fc.string({ maxLength: 10 }), value: fc.string({ maxLength: 10 }) }).map(({ extra, value }) => encode({ ...cursor, k: { ...cursor.k, [`x${extra}`]: value } })),
        fc.constantFrom(...Object.keys(cursor.k)).map((name) => encode({ ...cursor, k: Object.fromEntries(Object.entries(cursor.k).filter(([key]) => key !== name)) })),
        fc.constantFrom(...Object.keys(cursor.k)).chain((name) => fc.oneof(fc.constant(''), fc.string({ maxLength: 1100 })).map((value) => encode({ ...cursor, k: { ...cursor.k, [name]: value } }))),
        fc.jsonValue({ maxDepth: 2 }).map((k) => encode({ ...cursor, k })),
        fc.string({ maxLength: 30 }).map((s) => encode({ ...cursor, s })),
      ),
    ),
  );
}

function queryValues(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('', '-1', '0', '1.5', 'abc', '1e309', '-1e309', '99999999999999999999', '0x10', 'NaN', 'Infinity', 'null', 'true', '[]', '{}', ' ', '101', '201', '501', '1000000', 'pending', 'json', 'sarif', 'pdf', 'csv', 'xml', 'task.complete', 'task.complete,nope', ',,,', '2026-01-31T12:00:00Z', '2026-13-45T99:99:99Z', 'evt_01jzzzzzzzzzzzzzzzzzzzzzzz'),
    fc.integer().map(String),
    fc.double().map(String),
    fc.string({ unit: 'grapheme', maxLength: 100 }),
    fc.integer({ min: 2049, max: 6000 }).map((length) => 'x'.repeat(length)),
    tamperedCursors(),
  );
}

function queryArb(route: RouteDefinition): fc.Arbitrary<string> {
  const required = requiredQueries[routeKey(route)]?.(ids) ?? {};
  const pairs = fc.array(fc.tuple(queryKeys, queryValues()), { maxLength: 5 });
  const raw = fc.constantFrom('', '&&', '=', '==&=', 'limit', 'limit=%zz', 'a=b=c', '%', 'limit=1&limit=2&limit=abc', '?', 'cursor=%00');
  return fc.tuple(fc.boolean(), pairs, raw).map(([keepRequired, extra, tail]) => {
    const all: [string, string][] = [...(keepRequired ? Object.entries(required) : []), ...extra];
    const text = [...all.map(([key, value]) => `${safeEncode(key)}=${safeEncode(value)}`), tail].filter(Boolean).join('&');
    return text ? `?${text}` : '';
  });
}

/** JSON-ish text with keys a prototype-polluting parser would act on. */
const pollutionKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'tenant_id', 'pk', 'sk', 'created_at', 'gsi1pk');

function deep(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

function wrongTypeFor(value: unknown): fc.Arbitrary<unknown> {
  const others: fc.Arbitrary<unknown>[] = [fc.constant(null)];
  if (typeof value !== 'string') others.push(fc.string({ unit: 'grapheme', maxLength: 40 }));
  if (typeof value !== 'number') others.push(fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constant(1e308)));
  if (typeof value !== 'boolean') others.push(fc.boolean());
  if (!Array.isArray(value)) others.push(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }));
  if (typeof value === 'string' || typeof value === 'number') others.push(fc.constant({}));
  return fc.oneof(...others);
}

/** Bodies the route must refuse: never valid JSON of the route's shape. */
function invalidBody(route: RouteDefinition): fc.Arbitrary<string> {
  const sample = validBodies[routeKey(route)];
  const sampleText = JSON.stringify(sample ?? { unexpected: true });
  const fields = Object.keys(sample ?? {});
  const variants: fc.Arbitrary<string>[] = [
    // not an object at the root
    fc.oneof(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), fc.string({ maxLength: 50 }), fc.double(), fc.boolean(), fc.constant(null)).map((value) => JSON.stringify(value) ?? 'null'),
    // not JSON at all (a cut-off object is never valid JSON)
    fc.integer({ min: 1, max: sampleText.length - 1 }).map((cut) => sampleText.slice(0, cut)),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }).filter((text) => !isJson(text)),
    fc.constantFrom('{', '{"a":}', "{'a':1}", '{"a":1,}', 'NaN', 'undefined', '\u0000', '\ufeff{}', '{"a":1}{"b":2}', '[1,2', '"unterminated', '{"a":01}', '{"a":1e999999}x'),
    // the route's fields plus one it does not have, some of them prototype-pollution keys
    fc.tuple(pollutionKey, fc.jsonValue({ maxDepth: 2 })).map(([key, value]) => `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}${sampleText.length > 2 ? `,${sampleText.slice(1)}` : '}'}`),
    fc.tuple(fc.string({ minLength: 1, maxLength: 30 }).filter((key) => !fields.includes(key) && !['name', 'comment', 'input', 'detectors', 'events', 'secret', 'crawl', 'metadata', 'priority', 'session_id', 'url', 'status'].includes(key)), fc.jsonValue({ maxDepth: 1 })).map(
      ([key, value]) => JSON.stringify({ ...sample, [`zz${key}`]: value }),
    ),
    // deep nesting and huge values inside an otherwise valid body
    fc.constantFrom(100, 5_000, 100_000).map((depth) => `{"__deep":${deep(depth)}${sampleText.length > 2 ? `,${sampleText.slice(1)}` : '}'}`),
  ];
  // over the 1 MiB limit: rare, each one is a megabyte on the wire
  const oversize = fc.constant(JSON.stringify({ ...sample, padding: 'x'.repeat(MIB) }));
  const stringFields = fields.filter((field) => typeof sample?.[field] === 'string');
  // one field of the valid body with a value of the wrong type, or far too long
  if (sample && fields.length > 0) variants.push(fc.constantFrom(...fields).chain((field) => wrongTypeFor(sample[field]).map((value) => JSON.stringify({ ...sample, [field]: value }))));
  if (sample && stringFields.length > 0) {
    variants.push(
      fc.constantFrom(...stringFields).chain((field) =>
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((unit) => JSON.stringify({ ...sample, [field]: unit.repeat(Math.ceil(5_000 / unit.length)) })),
      ),
    );
  }
  // A blank body is no body, which some routes accept (POST /projects/{id}/scans takes `{}`).
  return fc.oneof({ arbitrary: fc.oneof(...variants), weight: 30 }, { arbitrary: oversize, weight: 1 }).filter((text) => text.trim() !== '');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

interface Generated extends RawRequest {
  breakage?: Breakage;
}

function requestArb(route: RouteDefinition, keys: { a: string; b: string }): fc.Arbitrary<Generated> {
  const writes = route.method !== 'GET';
  const params = pathParams(route);
  const sample = validBodies[routeKey(route)];
  const breakages: Breakage[] = ['auth', 'body', 'content_type', ...(params.length > 0 ? (['path_id'] as const) : [])];
  const validAuth = fc.constantFrom(`Bearer ${keys.a}`, `bearer ${keys.a}`, `Bearer ${keys.b}`);
  const realSegments = params.map((name) => fc.constant(safeEncode(ids[name])));

  return fc
    .record({
      // the body is where most of the parsing happens, so it is broken most often
      breakage: writes ? fc.oneof(...breakages.map((breakage) => ({ arbitrary: fc.constant(breakage), weight: breakage === 'body' ? 3 : breakage === 'path_id' ? 2 : 1 }))) : fc.constant(undefined),
      auth: fc.oneof({ arbitrary: validAuth, weight: 4 }, { arbitrary: badTokens.map((token) => (token === '' ? undefined : token)), weight: 1 }),
      badAuth: badTokens,
      asTenantB: fc.boolean(),
      segments: fc.tuple(...params.map((_, index) => fc.oneof(realSegments[index], unknownSegment))),
      unknownSegments: fc.tuple(...params.map(() => unknownSegment)),
      query: queryArb(route),
      contentType: fc.option(anyContentType, { nil: undefined }),
      nonJsonType: fc.option(nonJsonTypes, { nil: undefined }),
      idempotencyKey: fc.option(fc.oneof(headerValue, fc.constantFrom('', ' ', 'k'.repeat(256), 'k'.repeat(255), 'same-key', '\u00e9t\u00e9')), { nil: undefined }),
      accept: fc.option(fc.oneof(fc.constantFrom('application/xml', '*/*', 'text/event-stream', 'application/json;q=0', 'image/png', ''), headerValue), { nil: undefined }),
      body: fc.option(fc.oneof(invalidBody(route), fc.constant(sample === undefined ? '{}' : JSON.stringify(sample))), { nil: undefined }),
      invalid: invalidBody(route),
    })
    .map((draft) => {
      let authorization = draft.auth;
      let segments = draft.segments;
      let body = draft.body;
      let contentType = draft.contentType ?? (body !== undefined ? 'application/json' : undefined);
      switch (draft.breakage) {
        case 'auth':
          authorization = draft.badAuth === '' ? undefined : draft.badAuth;
          break;
        case 'body':
          authorization = `Bearer ${keys.a}`;
          body = draft.invalid;
          contentType = 'application/json';
          break;
        case 'content_type':
          authorization = `Bearer ${keys.a}`;
          body = body?.trim() ? body : sample === undefined ? '{}' : JSON.stringify(sample);
          contentType = draft.nonJsonType;
          break;
        case 'path_id':
          // tenant B with A's real ids, or anyone with ids that exist nowhere
          if (draft.asTenantB) authorization = `Bearer ${keys.b}`;
          else segments = draft.unknownSegments;
          break;
      }
      const values = Object.fromEntries(params.map((name, index) => [name, segments[index]]));
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.Authorization = authorization;
      if (contentType !== undefined) headers['Content-Type'] = contentType;
      if (draft.idempotencyKey !== undefined) headers['Idempotency-Key'] = draft.idempotencyKey;
      if (draft.accept !== undefined) headers.Accept = draft.accept;
      return { method: route.method, path: `${fillPath(route, values, (segment) => segment)}${draft.query}`, headers, body, breakage: draft.breakage };
    });
}

function describeRequest(request: Generated, response?: RawResponse): string {
  const body = request.body === undefined ? '' : ` body(${request.body.length})=${request.body.slice(0, 300)}`;
  return `${request.method} ${request.path.slice(0, 300)} [${request.breakage ?? 'free'}] headers=${JSON.stringify(request.headers)}${body}${response ? ` → ${response.status} ${response.body.slice(0, 300)}` : ''}`;
}

async function send(request: Generated): Promise<RawResponse> {
  const response = await http.send(request);
  sent++;
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  return response;
}

/** The failures a response shows, empty when it is acceptable for the request. */
function problemsOf(request: Generated, response: RawResponse): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push('5xx');
  if (request.breakage && response.status < 400) problems.push(`a request broken in ${request.breakage} was accepted`);
  const type = String(response.headers['content-type'] ?? '');
  if (response.status >= 400 && !type.startsWith('application/problem+json')) problems.push(`error without problem+json (${type})`);
  if (response.status >= 400 && /\n\s+at |node_modules|\.ts:\d+|ValidationException|TENANT#tenant-/.test(response.body)) problems.push('internals in the error body');
  return problems;
}

describe('fuzzing every route of the route table', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('fuzz', { workers: false });
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    const a = apiClient(runtime.baseUrl, runtime.keys.a);
    ids.agent_id = (await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' })).body.agent_id;
    await a('POST', '/agents/deploy', { agent_slug: 'sales' });
    for (let index = 0; index < 2; index++) {
      ids.task_id = (await a('POST', '/tasks', validBodies['POST /tasks'])).body.task_id;
      ids.project_id = (await a('POST', '/projects', validBodies['POST /projects'])).body.project_id;
    }
    ids.scan_id = (await a('POST', `/projects/${ids.project_id}/scans`, validBodies['POST /projects/{project_id}/scans'])).body.scan_id;
    ids.webhook_id = (await a('POST', '/webhooks', validBodies['POST /webhooks'])).body.webhook_id;
    for (const path of ['/tasks?limit=1', '/projects?limit=1', '/events?limit=1', '/approvals?limit=1&status=pending']) {
      const cursor = (await a('GET', path)).body.next_cursor;
      if (cursor) realCursors.push(cursor);
    }
    expect(Object.values(ids).every(Boolean)).toBe(true);
    expect(realCursors.length).toBeGreaterThanOrEqual(3);
    before = await tableSnapshot();
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
    const byStatus = [...statuses.entries()].sort(([x], [y]) => x - y).map(([status, count]) => `${status}×${count}`).join(' ');
    console.log(`fuzz: ${sent} requests over ${routes.length} routes (${RUNS} runs × ${BATCH} per route): ${byStatus}`);
  });

  for (const route of routes) {
    it(`${routeKey(route)}: no 5xx, every error a problem+json, no malformed write accepted`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(requestArb(route, runtime.keys), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          const responses = await Promise.all(batch.map(send));
          const failures = batch.flatMap((request, index) => problemsOf(request, responses[index]).map((problem) => `${problem}: ${describeRequest(request, responses[index])}`));
          if (failures.length > 0) throw new Error(failures.join('\n'));
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: 240_000, markInterruptAsFailure: false },
      );
    }, 300_000);
  }

  it('wrote nothing: the table is as it was before the malformed requests', async () => {
    expect(await tableSnapshot()).toEqual(before);
  });
});
