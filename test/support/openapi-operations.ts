import fc from 'fast-check';
import { invalidValue, queryText, validValue, type Schema } from './json-schema-arbitrary';

/** One operation of an OpenAPI document, as the contract tests read it. */
export interface DocOperation {
  method: string;
  path: string;
  /** The path with the version prefix, or without it for the unversioned routes. */
  base: string;
  public: boolean;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }[];
  body?: { schema: Schema; required: boolean; example?: unknown };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface PlannedRequest {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, instead of `body` (a signed callback's form or JSON text, whose bytes the signature covers). */
  rawBody?: string;
}

/**
 * What a test adds to the document for its requests. `body` rewrites every body before it is
 * sent: a body valid by the document may name a real provider to call (an integration's
 * `settings.api_url`, by default the real GitHub), which the test points at its loopback one.
 * `signed` describes the signed callback operations: public in the document (no API key), yet
 * each request must carry a signature over its raw body, which no schema can generate.
 */
export interface ContractHooks {
  body?: (operation: DocOperation, body: unknown) => unknown;
  signed?: SignedCallbacks;
}

export interface SignedCallbacks {
  /** Whether the operation is a signed callback. */
  covers(operation: DocOperation): boolean;
  /** Path ids of records whose signing secret `sign` uses (a Slack integration). */
  ids: Record<string, string>;
  /** A raw body the operation takes once signed, with its content type. */
  sample(operation: DocOperation): { contentType: string; body: string };
  /** The signature headers for a raw body. */
  sign(body: string, contentType: string): Record<string, string>;
}

/** zod writes discriminated unions as `oneOf`; their branches exclude each other, so `anyOf` (which the arbitraries read) generates the same values. */
function withAnyOf(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(withAnyOf);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key === 'oneOf' ? 'anyOf' : key, withAnyOf(value)]));
}

/** Every operation of the document, with what a request needs. */
export function operationsOf(doc: any): DocOperation[] {
  return Object.entries(doc.paths as Record<string, any>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'servers')
      .map(([method, operation]: [string, any]) => {
        const json = operation.requestBody?.content?.['application/json'];
        return {
          method: method.toUpperCase(),
          path,
          base: `${(item.servers ?? doc.servers)[0].url.replace(/\/$/, '')}${path}`,
          public: operation.security.length === 0,
          parameters: withAnyOf(operation.parameters),
          body: json ? { schema: withAnyOf(json.schema), required: operation.requestBody.required, example: json.examples?.example?.value } : undefined,
          responses: operation.responses,
        };
      }),
  );
}

/** A random identifier shaped like the real ones, which names nothing. */
const unknownId = fc.stringMatching(/^[a-z]{3}_01[0-9A-HJKMNP-TV-Z]{24}$/);

function requestOf(operation: DocOperation, key: string, path: Record<string, string>, query: Record<string, unknown>, headers: Record<string, unknown>, body: unknown, kind: string, hooks: ContractHooks = {}): PlannedRequest {
  const filled = operation.base.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(path[name]));
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== undefined).map(([name, value]) => [name, queryText(value)])).toString();
  const sent: Record<string, string> = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined).map(([name, value]) => [name, queryText(value)]));
  if (!operation.public && kind !== 'no key') sent.authorization = `Bearer ${key}`;
  if (body !== undefined) sent['content-type'] = 'application/json';
  return { kind, method: operation.method, path: search ? `${filled}?${search}` : filled, headers: sent, body: body === undefined || !hooks.body ? body : hooks.body(operation, body) };
}

/** A signed callback's sample body, signed right, for the path ids given. */
function signedRequestOf(operation: DocOperation, signed: SignedCallbacks, path: Record<string, string>, query: Record<string, unknown>): PlannedRequest {
  const plain = requestOf(operation, '', path, query, {}, undefined, 'signed');
  const { contentType, body } = signed.sample(operation);
  return { ...plain, headers: { ...signed.sign(body, contentType), 'content-type': contentType }, rawBody: body };
}

/**
 * A signed callback operation's requests: signed right (for a record the secret is of, or an id
 * that names nothing), or as the document alone describes them (no signature: they must be
 * refused, so the document must declare the refusal), or with a path id too long.
 */
function signedCallbackArb(operation: DocOperation, ids: Record<string, string>, signed: SignedCallbacks): fc.Arbitrary<PlannedRequest> {
  const parts = fc.record({ path: partArb(operation, 'path', { ...ids, ...signed.ids }), query: partArb(operation, 'query', ids, true) });
  const unsigned = fc.tuple(parts, fc.option(fc.constant({ unexpected: true }), { nil: undefined })).map(([{ path, query }, body]) => requestOf(operation, '', path as Record<string, string>, query, {}, body, 'no signature'));
  const tooLong = parts.map(({ path, query }) => signedRequestOf(operation, signed, Object.fromEntries(Object.keys(path).map((name) => [name, 'x'.repeat(200)])), query)).map((request) => ({ ...request, kind: 'path id too long' }));
  return fc.oneof(
    { arbitrary: parts.map(({ path, query }) => signedRequestOf(operation, signed, path as Record<string, string>, query)), weight: 2 },
    { arbitrary: fc.oneof(unsigned, tooLong), weight: 1 },
  );
}

function partArb(operation: DocOperation, part: 'path' | 'query' | 'header', ids: Record<string, string>, requiredOnly = false): fc.Arbitrary<Record<string, unknown>> {
  const parameters = operation.parameters.filter((parameter) => parameter.in === part && (parameter.required || !requiredOnly));
  const value = (name: string, schema: Schema) => (ids[name] ? fc.oneof(fc.constant(ids[name]), part === 'path' ? unknownId : validValue(schema)) : part === 'path' ? unknownId : validValue(schema));
  return fc.record(Object.fromEntries(parameters.map((parameter) => [parameter.name, value(parameter.name, parameter.schema)])), { requiredKeys: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name) });
}

/**
 * Requests for one operation, from its own schemas: valid ones (path ids of records that exist or
 * of none, query and headers from their schemas, the example body or one generated), and broken
 * ones (one parameter or the body made invalid, a body where none is taken, or no key).
 */
export function requestArb(operation: DocOperation, key: string, ids: Record<string, string>, hooks: ContractHooks = {}): fc.Arbitrary<PlannedRequest> {
  if (hooks.signed?.covers(operation)) return signedCallbackArb(operation, ids, hooks.signed);
  const bodyArb = operation.body ? (operation.body.example !== undefined ? fc.oneof(fc.constant(operation.body.example), validValue(operation.body.schema)) : validValue(operation.body.schema)) : fc.constant(undefined);
  // Optional filters are often free text the route parses further (comma-separated lists, ranges),
  // so half the requests leave them out: those reach the record and its success answer.
  const partsOf = (requiredOnly: boolean) => fc.record({ path: partArb(operation, 'path', ids), query: partArb(operation, 'query', ids, requiredOnly), header: partArb(operation, 'header', ids, requiredOnly), body: bodyArb });
  const parts = fc.oneof(partsOf(true), partsOf(false));
  const valid = parts.map(({ path, query, header, body }) => requestOf(operation, key, path as Record<string, string>, query, header, body, 'valid', hooks));
  const breakable = operation.parameters.flatMap((parameter) => {
    const bad = parameter.in === 'path' ? undefined : invalidValue(parameter.schema);
    return bad ? [{ parameter, bad }] : [];
  });
  const broken: fc.Arbitrary<PlannedRequest>[] = [];
  // The unversioned health check reads nothing of the request, so a body changes nothing there.
  if (operation.body || operation.base.startsWith('/v1/')) {
    broken.push(parts.map(({ path, query, header }) => requestOf(operation, key, path as Record<string, string>, query, header, operation.body ? 42 : { unexpected: true }, operation.body ? 'body of the wrong type' : 'a body where none is taken', hooks)));
  }
  const badBody = operation.body && invalidValue(operation.body.schema);
  if (badBody) broken.push(fc.tuple(parts, badBody).map(([{ path, query, header }, body]) => requestOf(operation, key, path as Record<string, string>, query, header, body, 'invalid body', hooks)));
  for (const { parameter, bad: badValue } of breakable) {
    broken.push(
      fc.tuple(parts, badValue).map(([{ path, query, header, body }, bad]) => {
        const target = parameter.in === 'query' ? { ...query, [parameter.name]: bad } : query;
        const headers = parameter.in === 'header' ? { ...header, [parameter.name]: bad } : header;
        return requestOf(operation, key, path as Record<string, string>, target, headers, body, `invalid ${parameter.in} ${parameter.name}`, hooks);
      }),
    );
  }
  if (operation.parameters.some((parameter) => parameter.in === 'path')) {
    broken.push(parts.map(({ path, query, header, body }) => requestOf(operation, key, Object.fromEntries(Object.keys(path).map((name) => [name, 'x'.repeat(200)])), query, header, body, 'path id too long', hooks)));
  }
  if (!operation.public) broken.push(parts.map(({ path, query, header, body }) => requestOf(operation, key, path as Record<string, string>, query, header, body, 'no key', hooks)));
  return broken.length === 0 ? valid : fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: fc.oneof(...broken), weight: 1 });
}

/** The plainest valid request: ids of records that exist, required parameters only, the example body. */
export function baselineRequest(operation: DocOperation, key: string, ids: Record<string, string>, hooks: ContractHooks = {}): PlannedRequest {
  const signed = hooks.signed?.covers(operation) ? hooks.signed : undefined;
  const known = { ...ids, ...signed?.ids };
  const pick = (part: 'path' | 'query' | 'header') =>
    Object.fromEntries(operation.parameters.filter((parameter) => parameter.in === part && parameter.required).map((parameter) => [parameter.name, known[parameter.name] ?? fc.sample(part === 'path' ? unknownId : validValue(parameter.schema), 1)[0]]));
  if (signed) return signedRequestOf(operation, signed, pick('path') as Record<string, string>, pick('query'));
  return requestOf(operation, key, pick('path') as Record<string, string>, pick('query'), pick('header'), operation.body?.example, 'valid', hooks);
}
