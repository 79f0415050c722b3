import fc from 'fast-check';
import type { RouteDefinition } from '#functions/routes';
import { invalidBody, signedCallbackBody, unstorableNumberBody } from './fuzz-bodies';
import type { RawRequest, RawResponse } from './raw-http';
import { fillPath, pathParams, requiredQueries, routeKey, signedCallbackRoutes, signedCallbackSamples, validBodies } from './route-samples';
import { signedHeaders } from './slack-requests';

/** The requests fuzz-routes.test.ts sends: arbitraries of headers, paths, queries and bodies. */

/** What the generated requests refer to: ids of tenant A's records (or of nothing), real cursors of its listings. */
export interface FuzzWorld {
  ids: Record<string, string>;
  realCursors: readonly string[];
  /** The signing secret of the Slack integration `ids.integration_id` names: what its callbacks are signed with. */
  signingSecret: string;
  /** A real integration of another kind than Slack, which the Slack callbacks must not know either. */
  otherIntegrationId: string;
}

/**
 * Which part of a request to a writing route is broken on purpose. For the signed callback routes
 * (no API key), `signature` is their `auth` (missing, malformed, stale or forged), and `path_id`
 * an id that names no Slack integration, with a signature that is right for it.
 */
export type Breakage = 'auth' | 'body' | 'content_type' | 'path_id' | 'number' | 'signature';

const printableLatin1 = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((code) => String.fromCharCode(code));
const headerValue = fc.string({ unit: printableLatin1, maxLength: 300 });

export function safeEncode(text: string): string {
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

function tamperedCursors(realCursors: readonly string[]): fc.Arbitrary<string> {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  // A real cursor is `c1.<position>.<tag>` (shared/domain/page-cursor.ts): edit the position and keep the tag.
  const decoded = realCursors.map((cursor) => {
    const [version, payload, tag] = cursor.split('.');
    return { version, payload, tag, position: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, string> };
  });
  return fc.oneof(
    fc.base64String({ maxLength: 200 }),
    fc.jsonValue({ maxDepth: 3 }).map(encode),
    fc.constantFrom(...realCursors),
    fc.constantFrom(...decoded).chain(({ version, payload, tag, position }) => {
      const resealed = (edited: unknown) => `${version}.${encode(edited)}.${tag}`;
      return fc.oneof(
        // the listing's own position, edited into a key DynamoDB would not take, under the real tag
        fc.record({ extra: fc.string({ maxLength: 10 }), value: fc.string({ maxLength: 10 }) }).map(({ extra, value }) => resealed({ ...position, [`x${extra}`]: value })),
        fc.constantFrom(...Object.keys(position)).map((name) => resealed(Object.fromEntries(Object.entries(position).filter(([key]) => key !== name)))),
        fc.constantFrom(...Object.keys(position)).chain((name) => fc.oneof(fc.constant(''), fc.string({ maxLength: 1100 })).map((value) => resealed({ ...position, [name]: value }))),
        fc.jsonValue({ maxDepth: 2 }).map(resealed),
        fc.string({ maxLength: 30 }).map((forged) => `${version}.${payload}.${forged}`),
        fc.string({ maxLength: 5 }).map((other) => `${other}.${payload}.${tag}`),
        // the unsigned format cursors had before they were signed
        fc.string({ maxLength: 30 }).map((scope) => encode({ s: scope, k: position })),
      );
    }),
  );
}

function queryValues(realCursors: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('', '-1', '0', '1.5', 'abc', '1e309', '-1e309', '99999999999999999999', '0x10', 'NaN', 'Infinity', 'null', 'true', '[]', '{}', ' ', '101', '201', '501', '1000000', 'pending', 'json', 'sarif', 'pdf', 'csv', 'xml', 'task.complete', 'task.complete,nope', ',,,', '2026-01-31T12:00:00Z', '2026-13-45T99:99:99Z', 'evt_01jzzzzzzzzzzzzzzzzzzzzzzz'),
    fc.integer().map(String),
    fc.double().map(String),
    fc.string({ unit: 'grapheme', maxLength: 100 }),
    fc.integer({ min: 2049, max: 6000 }).map((length) => 'x'.repeat(length)),
    tamperedCursors(realCursors),
  );
}

function queryArb(route: RouteDefinition, world: FuzzWorld): fc.Arbitrary<string> {
  const required = requiredQueries[routeKey(route)]?.(world.ids) ?? {};
  const pairs = fc.array(fc.tuple(queryKeys, queryValues(world.realCursors)), { maxLength: 5 });
  const raw = fc.constantFrom('', '&&', '=', '==&=', 'limit', 'limit=%zz', 'a=b=c', '%', 'limit=1&limit=2&limit=abc', '?', 'cursor=%00');
  return fc.tuple(fc.boolean(), pairs, raw).map(([keepRequired, extra, tail]) => {
    const all: [string, string][] = [...(keepRequired ? Object.entries(required) : []), ...extra];
    const text = [...all.map(([key, value]) => `${safeEncode(key)}=${safeEncode(value)}`), tail].filter(Boolean).join('&');
    return text ? `?${text}` : '';
  });
}

export interface Generated extends RawRequest {
  breakage?: Breakage;
}

export function requestArb(route: RouteDefinition, keys: { a: string; b: string }, world: FuzzWorld): fc.Arbitrary<Generated> {
  if (signedCallbackRoutes.includes(route)) return signedCallbackArb(route, keys, world);
  const writes = route.method !== 'GET';
  const params = pathParams(route);
  const sample = validBodies[routeKey(route)];
  const unstorable = unstorableNumberBody(route);
  const breakages: Breakage[] = ['auth', 'body', 'content_type', ...(params.length > 0 ? (['path_id'] as const) : []), ...(unstorable ? (['number'] as const) : [])];
  const validAuth = fc.constantFrom(`Bearer ${keys.a}`, `bearer ${keys.a}`, `Bearer ${keys.b}`);
  const realSegments = params.map((name) => fc.constant(safeEncode(world.ids[name])));

  return fc
    .record({
      // the body is where most of the parsing happens, so it is broken most often
      breakage: writes ? fc.oneof(...breakages.map((breakage) => ({ arbitrary: fc.constant(breakage), weight: breakage === 'body' ? 3 : breakage === 'path_id' || breakage === 'number' ? 2 : 1 }))) : fc.constant(undefined),
      auth: fc.oneof({ arbitrary: validAuth, weight: 4 }, { arbitrary: badTokens.map((token) => (token === '' ? undefined : token)), weight: 1 }),
      badAuth: badTokens,
      asTenantB: fc.boolean(),
      segments: fc.tuple(...params.map((_, index) => fc.oneof(realSegments[index], unknownSegment))),
      unknownSegments: fc.tuple(...params.map(() => unknownSegment)),
      query: queryArb(route, world),
      contentType: fc.option(anyContentType, { nil: undefined }),
      nonJsonType: fc.option(nonJsonTypes, { nil: undefined }),
      idempotencyKey: fc.option(fc.oneof(headerValue, fc.constantFrom('', ' ', 'k'.repeat(256), 'k'.repeat(255), 'same-key', '\u00e9t\u00e9')), { nil: undefined }),
      accept: fc.option(fc.oneof(fc.constantFrom('application/xml', '*/*', 'text/event-stream', 'application/json;q=0', 'image/png', ''), headerValue), { nil: undefined }),
      body: fc.option(fc.oneof(invalidBody(route), fc.constant(sample === undefined ? '{}' : JSON.stringify(sample))), { nil: undefined }),
      invalid: invalidBody(route),
      unstorable: unstorable ?? fc.constant(undefined),
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
        case 'number':
          // valid JSON of the route's shape but for one number the table cannot store
          authorization = `Bearer ${keys.a}`;
          body = draft.unstorable;
          contentType = 'application/json';
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

/** Hex like a signing secret, never the one of the integration under test. */
const otherSecret = fc.stringMatching(/^[0-9a-f]{32}$/);

/**
 * Requests to a signed callback route (Slack's interactions and events): there the credential is
 * the signature over the raw body, not the Authorization header, which varies freely (absent,
 * garbage, a real key of either tenant) and must change nothing. Broken in `signature` or
 * `path_id`, a request must be refused; signed right (no breakage), any body may come, which the
 * route answers 400 or, for payloads it ignores, 200 (Slack retries anything else), never 5xx.
 */
function signedCallbackArb(route: RouteDefinition, keys: { a: string; b: string }, world: FuzzWorld): fc.Arbitrary<Generated> {
  const sample = signedCallbackSamples[routeKey(route)];
  const secret = world.signingSecret;
  type SignatureFault = { kind: 'missing' | 'no_timestamp' | 'no_signature' | 'other_secret' | 'other_body' | 'other_timestamp' | 'skewed' | 'garbage'; secret: string; skew: number; signature: string; timestamp: string; tail: string };
  return fc
    .record({
      breakage: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.constant<Breakage>('signature'), weight: 3 }, { arbitrary: fc.constant<Breakage>('path_id'), weight: 1 }),
      fault: fc.record<SignatureFault>({
        kind: fc.constantFrom('missing', 'no_timestamp', 'no_signature', 'other_secret', 'other_body', 'other_timestamp', 'skewed', 'garbage'),
        secret: otherSecret,
        // well outside the 300 s window, so that the time a request takes to be sent cannot bring it back in
        skew: fc.oneof(fc.integer({ min: 360, max: 10_000_000 }), fc.integer({ min: -10_000_000, max: -360 })),
        signature: fc.oneof(headerValue, fc.stringMatching(/^v0=[0-9a-fA-F]{60,68}$/), fc.constantFrom('', 'v0=', 'v1=', `v0=${'0'.repeat(64)}`)),
        timestamp: fc.oneof(headerValue, fc.constantFrom('', '0', '-1', '1e9', ' 1', '99999999999999999999', 'NaN')),
        tail: fc.string({ minLength: 1, maxLength: 3 }),
      }),
      body: signedCallbackBody(route),
      segment: fc.oneof(unknownSegment, fc.constant(safeEncode(`${world.ids.integration_id.slice(0, -6)}zzzzzz`)), fc.constant(safeEncode(world.otherIntegrationId))),
      authorization: fc.option(fc.oneof(fc.constantFrom(`Bearer ${keys.a}`, `Bearer ${keys.b}`), badTokens), { nil: undefined }),
      contentType: fc.oneof({ arbitrary: fc.constant(sample.contentType), weight: 3 }, { arbitrary: fc.option(anyContentType, { nil: undefined }), weight: 1 }),
      retry: fc.option(fc.oneof(fc.constantFrom('1', '2', '3'), headerValue), { nil: undefined }),
      // Mostly none: the route reads no query, and a long one (414) would stop the request before its body is read.
      query: fc.oneof({ arbitrary: fc.constant(''), weight: 3 }, { arbitrary: queryArb(route, world), weight: 1 }),
    })
    .map((draft) => {
      const now = Math.floor(Date.now() / 1000);
      const signatureOf = (key: string, body: string, at: number): Record<string, string> => {
        const signed = signedHeaders(key, body, sample.contentType, at);
        return { 'X-Slack-Signature': signed['X-Slack-Signature'], 'X-Slack-Request-Timestamp': signed['X-Slack-Request-Timestamp'] };
      };
      const right = signatureOf(secret, draft.body, now);
      const { kind, secret: wrong, skew, tail } = draft.fault;
      const faulty: Record<SignatureFault['kind'], () => Record<string, string>> = {
        missing: () => ({}),
        no_timestamp: () => ({ 'X-Slack-Signature': right['X-Slack-Signature'] }),
        no_signature: () => ({ 'X-Slack-Request-Timestamp': right['X-Slack-Request-Timestamp'] }),
        other_secret: () => signatureOf(wrong, draft.body, now),
        other_body: () => signatureOf(secret, `${draft.body}${tail}`, now),
        other_timestamp: () => ({ ...right, 'X-Slack-Request-Timestamp': String(now + Math.sign(skew)) }),
        skewed: () => signatureOf(secret, draft.body, now + skew),
        garbage: () => ({ 'X-Slack-Signature': draft.fault.signature, 'X-Slack-Request-Timestamp': draft.fault.timestamp }),
      };
      const headers: Record<string, string> = draft.breakage === 'signature' ? faulty[kind]() : right;
      if (draft.authorization !== undefined) headers.Authorization = draft.authorization;
      if (draft.contentType !== undefined) headers['Content-Type'] = draft.contentType;
      if (draft.retry !== undefined) Object.assign(headers, { 'X-Slack-Retry-Num': draft.retry, 'X-Slack-Retry-Reason': 'http_timeout' });
      const segment = draft.breakage === 'path_id' ? draft.segment : safeEncode(world.ids.integration_id);
      return { method: route.method, path: `${fillPath(route, { integration_id: segment }, (value) => value)}${draft.query}`, headers, body: draft.body, breakage: draft.breakage };
    });
}

export function describeRequest(request: Generated, response?: RawResponse): string {
  const body = request.body === undefined ? '' : ` body(${request.body.length})=${request.body.slice(0, 300)}`;
  return `${request.method} ${request.path.slice(0, 300)} [${request.breakage ?? 'free'}] headers=${JSON.stringify(request.headers)}${body}${response ? ` → ${response.status} ${response.body.slice(0, 300)}` : ''}`;
}

