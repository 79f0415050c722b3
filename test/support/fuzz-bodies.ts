import fc from 'fast-check';
import type { RouteDefinition } from '#functions/routes';
import { FOREIGN_SLACK_TEAM, routeKey, signedCallbackSamples, validBodies } from './route-samples';

/** Request bodies for fuzz-routes.test.ts that the route must refuse, whatever else the request holds. */

const MIB = 1024 * 1024;

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
export function invalidBody(route: RouteDefinition): fc.Arbitrary<string> {
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
        // 5,000 code points (zod counts those, not UTF-16 units: 2,500 astral characters are 2,500 long).
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((unit) => JSON.stringify({ ...sample, [field]: unit.repeat(Math.ceil(5_000 / [...unit].length)) })),
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

/** JSON number literals the table cannot store as sent (shared/domain/storable-number.ts), written as a client sends them. */
export const UNSTORABLE_NUMBERS = ['9007199254740993', '-9007199254740993', '1e309', '-1e309', '1e-200', '-5e-324', '123456789012345678901234567890123456789012', '1e400'];

const NUMBER = '__unstorable_number__';

/**
 * Places in a route's body where a number or free-form JSON is taken (so only the number itself
 * is wrong), beyond the top-level fields of its valid body. Not task `input`: an unstorable
 * number there is accepted and fails the task (test/e2e/unstorable-numbers.test.ts).
 */
const numberPlaces: Record<string, Record<string, unknown>[]> = {
  'POST /projects/{project_id}/scans': [{ detectors: ['security'], metadata: { build: NUMBER } }, { metadata: { a: 'x', b: NUMBER } }],
  'POST /approvals/{approval_id}/resolve': [{ decision: 'approved', modified_action: { type: 'mail.send', to: 'ada@prospect.example', subject: 'Hi', body: 'Hello', attempt: NUMBER } }],
  'PATCH /agents/{agent_id}/config': [{ approval_ttl_hours: NUMBER }, { integrations: { github: NUMBER } }],
  'PATCH /settings/retention': [{ retention_days: NUMBER }],
  'POST /projects': [{ name: 'Site', target: 'https://www.example.com/', crawl: { max_pages: NUMBER } }],
  'PATCH /projects/{project_id}': [{ crawl: { timeout_seconds: NUMBER } }],
  // An SMTP port, and a GitHub api_url that is a number (a string one would name a provider to call).
  'POST /integrations': [
    { kind: 'email', name: 'Mail', credentials: { host: '127.0.0.1', port: NUMBER }, settings: { from: 'Sales <sales@example.com>' } },
    { kind: 'github', name: 'GitHub', credentials: { token: 'ghp_fuzz' }, settings: { api_url: NUMBER } },
  ],
  // Credentials and settings are free-form JSON in the body, checked against the kind by the service.
  'PATCH /integrations/{integration_id}': [{ settings: { api_url: NUMBER } }, { settings: { approvers: [NUMBER] } }, { credentials: { bot_token: NUMBER, signing_secret: '0123456789abcdef' } }, { name: 'x', settings: { x: NUMBER } }],
};

/**
 * Bodies valid for the route except for one number the table cannot store: in a top-level field
 * of the route's valid body, or in one of its number places. Undefined for a route without a body.
 */
export function unstorableNumberBody(route: RouteDefinition): fc.Arbitrary<string> | undefined {
  const sample = validBodies[routeKey(route)];
  if (!sample) return undefined;
  const templates = [...Object.keys(sample).map((field) => ({ ...sample, [field]: NUMBER })), ...(numberPlaces[routeKey(route)] ?? [])];
  return fc.tuple(fc.constantFrom(...templates), fc.constantFrom(...UNSTORABLE_NUMBERS)).map(([template, literal]) => JSON.stringify(template).replace(JSON.stringify(NUMBER), literal));
}

/** What Slack posts to each callback route, from another workspace (so nothing it says is acted on). */
const slackPayloads: Record<string, Record<string, unknown>[]> = {
  'POST /integrations/{integration_id}/slack/interactions': [
    { type: 'block_actions', user: { id: 'U0FUZZ', team_id: FOREIGN_SLACK_TEAM }, team: { id: FOREIGN_SLACK_TEAM }, trigger_id: '1.2.abc', channel: { id: 'C0FUZZ' }, message: { ts: '1732700000.000100' }, actions: [{ action_id: 'approve', block_id: 'gatehouse_approval', value: 'apr_none' }] },
    { type: 'view_submission', user: { id: 'U0FUZZ', team_id: FOREIGN_SLACK_TEAM }, team: { id: FOREIGN_SLACK_TEAM }, view: { callback_id: 'gatehouse_edit', private_metadata: 'apr_none', state: { values: { body: { body: { type: 'plain_text_input', value: 'x' } } } } } },
    { type: 'shortcut', team: { id: FOREIGN_SLACK_TEAM }, user: { id: 'U0FUZZ' }, callback_id: 'x', trigger_id: '1.2.abc' },
  ],
  'POST /integrations/{integration_id}/slack/events': [
    { token: 'unused', challenge: 'c-1', type: 'url_verification' },
    { token: 'unused', team_id: FOREIGN_SLACK_TEAM, api_app_id: 'A0FUZZ', type: 'event_callback', event_id: 'Ev0FUZZ', event_time: 1732700100, event: { type: 'message', channel: 'C0FUZZ', user: 'U0FUZZ', text: 'audit please', ts: '1732700100.000200' } },
    { token: 'unused', team_id: FOREIGN_SLACK_TEAM, type: 'event_callback', event_id: 'Ev0FUZZ2', event_time: 1732700100, event: { type: 'app_mention', channel: 'C0FUZZ', text: 'hi' } },
    { token: 'unused', type: 'app_rate_limited', team_id: FOREIGN_SLACK_TEAM, minute_rate_limited: 1518467820 },
  ],
};

/** A payload with one field, at any depth, given a value of another type or dropped. */
function mutatedPayload(payload: Record<string, unknown>): fc.Arbitrary<unknown> {
  const paths: string[][] = [];
  const walk = (value: unknown, path: string[]) => {
    if (path.length > 0) paths.push(path);
    if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
  };
  walk(payload, []);
  return fc.tuple(fc.constantFrom(...paths), fc.option(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ unit: 'grapheme', maxLength: 40 })), { nil: undefined })).map(([path, value]) => {
    const copy = structuredClone(payload) as Record<string, unknown>;
    let parent: Record<string, unknown> = copy;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    if (value === undefined) delete parent[path.at(-1)!];
    else parent[path.at(-1)!] = value;
    return copy;
  });
}

/**
 * Bodies for a signed callback route: its sample, Slack's payloads from another workspace (as
 * sent, or with one field of another type or missing, in the route's encoding or the other
 * route's), and text that is no payload at all. Signed with the right secret they pass the
 * signature check; whether the route takes them (200, also for kinds it ignores, so Slack does not
 * retry) or not (400), they never write: nothing comes from the integration's own workspace.
 */
export function signedCallbackBody(route: RouteDefinition): fc.Arbitrary<string> {
  const key = routeKey(route);
  const payloads = slackPayloads[key];
  const form = (json: unknown) => `payload=${encodeURIComponent(JSON.stringify(json) ?? 'undefined')}`;
  const encode = key.endsWith('/interactions') ? form : (json: unknown) => JSON.stringify(json) ?? 'null';
  const payload = fc.oneof(fc.constantFrom(...payloads), fc.constantFrom(...payloads).chain(mutatedPayload));
  return fc.oneof(
    fc.constant(signedCallbackSamples[key].body),
    payload.map(encode),
    // the other encoding: JSON where a form is expected and the other way round
    payload.map((json) => (encode === form ? JSON.stringify(json) : form(json))),
    // a form with no, an empty, a doubled or a non-JSON `payload`
    fc.constantFrom('', 'payload=', 'payload', '=', '&&', 'payload=%7B', 'payload=%zz', 'payload=null', 'payload=%5B%5D', 'payload=1e999', `${form(payloads[0])}&${form(payloads[0])}`, 'payload=%7B%22type%22%3A%22__proto__%22%7D'),
    fc.string({ unit: 'grapheme', maxLength: 60 }).map((text) => `payload=${encodeURIComponent(text)}`),
    fc.constantFrom('{', '{"type":', '[]', 'null', '"x"', '{"type":null}', '{"type":{}}', '{"type":"event_callback"}', '{"type":"url_verification"}', '{"type":"url_verification","challenge":""}', '{"__proto__":{"type":"url_verification"}}', '{"constructor":{"prototype":{"x":1}}}'),
    fc.constantFrom(100, 5_000, 100_000).map((depth) => `{"type":"event_callback","event":${deep(depth)}}`),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  );
}
