import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { API_VERSION, authorizer, routes, type RouteDefinition } from '#functions/routes';
import { mapErrorToResponse } from '#shared/http/error-mapper';
import { problemResponse } from '#shared/http/problem';
import { ServiceUnavailableError, UnauthorizedError } from '#shared/domain/errors';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { isStreamingHandler, type LocalResponseStream, type ResponsePrelude, type StreamingHandler } from '#lib/local/lambda-streaming';

export const STAGE = API_VERSION;
/** API Gateway's own payload limit; our handlers enforce the smaller 1 MiB themselves. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
}

function compile(route: RouteDefinition): CompiledRoute {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([a-z_]+)\\?\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const prefix = route.unversioned ? '' : `/${STAGE}`;
  return { route, names, pattern: new RegExp(`^${prefix}${source}/?$`) };
}

const compiled = routes.map(compile);

function send(response: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  const body = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : Buffer.from(result.body ?? '', 'utf8');
  response.writeHead(result.statusCode, { ...headers, 'Content-Length': String(body.length) });
  response.end(body);
}

const NO_BODY = Buffer.alloc(0);

async function readBody(request: IncomingMessage): Promise<Buffer | 'too_large'> {
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3): most GETs,
  // which then skip the stream's async iterator.
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return NO_BODY;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY_BYTES) return 'too_large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function singleValued(multi: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(multi).map(([name, values]) => [name, values[values.length - 1]]));
}

export interface ApiGatewayOptions {
  /**
   * How long an Allow answer of the authorizer is reused for the same Authorization header, as the
   * deployed API's `resultsCacheTtl` does (`authorizer.cacheTtlSeconds`); 0 calls it every time.
   */
  authorizerCacheSeconds: number;
}

/**
 * Plays API Gateway (REST API, Lambda proxy integration) on a local HTTP server: matches the
 * route table, runs the Lambda authorizer the way the deployed API does (its answers cached per
 * Authorization header), and answers its own errors as the deployed API's gateway responses do
 * (problem+json 401, 404, 413, 503).
 */
export function createApiGateway(options: ApiGatewayOptions): Server {
  const authorize = cachedAuthorizer(options.authorizerCacheSeconds * 1000);
  const server = createServer((request, response) => {
    handle(request, response, authorize).catch((error) => send(response, mapErrorToResponse(error)));
  });
  // Requests Node's parser refuses (headers or URL over 16 KiB, broken framing) get a problem+json
  // as API Gateway's DEFAULT_4XX gives, instead of Node's bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const result = problemResponse({ status: tooLarge ? 431 : 400, code: tooLarge ? 'headers_too_large' : 'bad_request', detail: tooLarge ? 'The request line and headers are too large.' : 'The request is not valid HTTP.' });
    const head = Object.entries({ ...result.headers, 'Content-Length': String(Buffer.byteLength(result.body)), Connection: 'close' }).map(([name, value]) => `${name}: ${value}`);
    socket.end(`HTTP/1.1 ${result.statusCode} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n${head.join('\r\n')}\r\n\r\n${result.body}`);
  });
  return server;
}

async function handle(request: IncomingMessage, response: ServerResponse, authorize: Authorize): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const method = (request.method ?? 'GET').toUpperCase();
  const match = matchRoute(method, url.pathname);
  if (!match) {
    request.resume();
    return send(response, problemResponse({ status: 404, code: 'route_not_found', detail: `No route matches ${method} ${url.pathname}.` }));
  }
  if (match.route.streaming) return serveStreaming(match.route, match.params, url, request, response);
  const body = await readBody(request);
  if (body === 'too_large') return send(response, problemResponse({ status: 413, code: 'payload_too_large', detail: 'The request body is too large.' }));

  // Null-prototype maps: a client's header or query name may be `__proto__` or `constructor`.
  const multiHeaders: Record<string, string[]> = Object.create(null);
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index];
    (multiHeaders[name] ??= []).push(request.rawHeaders[index + 1]);
  }
  const multiQuery: Record<string, string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) (multiQuery[name] ??= []).push(value);
  const headers = singleValued(multiHeaders);
  const requestId = randomUUID();
  const resourcePath = match.route.unversioned ? url.pathname : url.pathname.slice(STAGE.length + 1);

  let authorizerContext: Record<string, string> | undefined;
  if (match.route.auth === 'api_key') {
    const outcome = await authorize(headers, method, resourcePath, requestId);
    if ('problem' in outcome) return send(response, outcome.problem);
    authorizerContext = outcome.context;
  }

  const event: APIGatewayProxyEvent = {
    resource: match.route.path,
    path: resourcePath,
    httpMethod: method,
    headers,
    multiValueHeaders: multiHeaders,
    queryStringParameters: Object.keys(multiQuery).length ? singleValued(multiQuery) : null,
    multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
    pathParameters: Object.keys(match.params).length ? match.params : null,
    stageVariables: null,
    body: body.length ? body.toString('utf8') : null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: authorizerContext ?? null,
      httpMethod: method,
      identity: { sourceIp: request.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? null } as never,
      path: url.pathname,
      protocol: `HTTP/${request.httpVersion}`,
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: match.route.path,
      stage: STAGE,
    },
  };
  const handler = await loadHandler(match.route.handler);
  const result = (await handler(event, lambdaContext(match.route.handler, 29))) as APIGatewayProxyResult;
  send(response, { ...result, headers: { ...result.headers, 'X-Request-Id': requestId } });
}

/** Static segments of a path template as 0, `{variables}` as 1: lower sorts first (more specific). */
function specificity(path: string): number[] {
  return path.split('/').map((segment) => (segment.startsWith('{') ? 1 : 0));
}

function moreSpecific(left: number[], right: number[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index++) if (left[index] !== right[index]) return left[index] - right[index];
  return 0;
}

/**
 * REST API routing: the path picks one resource, static segments before `{variables}`
 * (`/agents/deploy` before `/agents/{agent_id}`), and only then the method; a method the
 * resource lacks is route_not_found, never another resource's method.
 */
function matchRoute(method: string, pathname: string): { route: RouteDefinition; params: Record<string, string> } | undefined {
  let resource: { template: CompiledRoute; found: RegExpExecArray } | undefined;
  for (const candidate of compiled) {
    const found = candidate.pattern.exec(pathname);
    if (found && (!resource || moreSpecific(specificity(candidate.route.path), specificity(resource.template.route.path)) < 0)) resource = { template: candidate, found };
  }
  if (!resource) return undefined;
  const { template, found } = resource;
  const route = compiled.find((candidate) => candidate.route.path === template.route.path && candidate.route.method === method)?.route;
  if (!route) return undefined;
  try {
    return { route, params: Object.fromEntries(template.names.map((name, index) => [name, decodeURIComponent(found[index + 1])])) };
  } catch {
    return undefined;
  }
}

type AuthorizeOutcome = { context: Record<string, string> } | { problem: APIGatewayProxyResult };
type Authorize = (headers: Record<string, string>, method: string, path: string, requestId: string) => Promise<AuthorizeOutcome>;

/** Bounds the cache: one entry per key in use, and a flood of made-up keys is never cached. */
const AUTHORIZER_CACHE_ENTRIES = 10_000;

/**
 * The authorizer behind API Gateway's result cache, keyed by the identity source (the
 * Authorization header): an Allow answer stands for `ttlMs`, so a key revoked meanwhile keeps
 * working until then, exactly as on AWS (docs/security.md). Refusals and failures are not kept:
 * a key created or a table back up a moment later works at once. As on a REST API, a request
 * without the identity source is 401 without a call.
 */
function cachedAuthorizer(ttlMs: number): Authorize {
  const answers = new Map<string, { context: Record<string, string>; until: number }>();
  return async (headers, method, path, requestId) => {
    const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    if (!authorization) return { problem: mapErrorToResponse(new UnauthorizedError()) };
    const cached = answers.get(authorization);
    // A copy: each event gets its own context, as each of API Gateway's invocations does.
    if (cached && cached.until > Date.now()) return { context: { ...cached.context } };
    const outcome = await invokeAuthorizer(headers, method, path, requestId);
    if (ttlMs > 0 && 'context' in outcome) {
      if (answers.size >= AUTHORIZER_CACHE_ENTRIES) answers.clear();
      answers.set(authorization, { context: outcome.context, until: Date.now() + ttlMs });
    }
    return outcome;
  };
}

/** REST API semantics: `Unauthorized` thrown → 401, a policy that allows nothing → 403, any other failure → 503. */
async function invokeAuthorizer(headers: Record<string, string>, method: string, path: string, requestId: string): Promise<AuthorizeOutcome> {
  const handler = await loadHandler(authorizer.handler);
  try {
    const result = await handler(
      { type: 'REQUEST', methodArn: `arn:aws:execute-api:local:000000000000:local/${STAGE}/${method}${path}`, headers, httpMethod: method, path, resource: path, requestContext: { requestId } },
      lambdaContext(authorizer.handler, 10),
    );
    const allowed = result?.policyDocument?.Statement?.some((statement: { Effect: string }) => statement.Effect === 'Allow');
    if (!allowed) return { problem: problemResponse({ status: 403, code: 'forbidden', detail: 'The API key may not call this route.' }) };
    return { context: Object.fromEntries(Object.entries(result.context ?? {}).map(([key, value]) => [key, String(value)])) };
  } catch (error) {
    if (error instanceof Error && error.message === 'Unauthorized') return { problem: mapErrorToResponse(new UnauthorizedError('The API key is unknown or revoked.')) };
    return { problem: mapErrorToResponse(new ServiceUnavailableError('The API key could not be checked right now. Retry shortly.')) };
  }
}

/** Lambda's hard limit, which the streaming handler must end before. */
const STREAMING_TIMEOUT_SECONDS = 900;

/**
 * Plays a Function URL with RESPONSE_STREAM: a payload 2.0 event, and a response stream whose
 * prelude (status, headers) goes out before the first body byte, written as it is produced.
 */
async function serveStreaming(route: RouteDefinition, params: Record<string, string>, url: URL, request: IncomingMessage, response: ServerResponse): Promise<void> {
  request.resume();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
  const query = Object.fromEntries(url.searchParams);
  const requestId = randomUUID();
  const event = {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: request.headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: { method: route.method, path: url.pathname, protocol: `HTTP/${request.httpVersion}`, sourceIp: request.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
  const loaded: unknown = await loadHandler(route.handler);
  if (!isStreamingHandler(loaded)) throw new Error(`${route.handler} is not a streaming handler.`);
  const handler: StreamingHandler = loaded;
  let prelude: ResponsePrelude = { statusCode: 200, headers: {} };
  const stream = new Writable({
    write(chunk, _encoding, done) {
      if (!response.headersSent) response.writeHead(prelude.statusCode ?? 200, { ...prelude.headers, 'X-Request-Id': requestId });
      response.write(chunk, done);
    },
    final(done) {
      if (!response.headersSent) response.writeHead(prelude.statusCode ?? 200, { ...prelude.headers, 'X-Request-Id': requestId });
      response.end(done);
    },
  }) as LocalResponseStream;
  stream.setPrelude = (value) => (prelude = value);
  // A client that goes away ends the stream, as a closed Function URL connection does.
  response.on('close', () => stream.destroy());
  await handler(event, stream, lambdaContext(route.handler, STREAMING_TIMEOUT_SECONDS)).catch((error: unknown) => {
    if (!response.headersSent) send(response, mapErrorToResponse(error));
    else response.destroy();
  });
}
