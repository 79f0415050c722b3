import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { RouteDefinition } from '#functions/routes';
import { mapErrorToResponse } from '#shared/http/error-mapper';
import { problemResponse } from '#shared/http/problem';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { isStreamingHandler, type LocalResponseStream, type ResponsePrelude, type StreamingHandler } from '#lib/local/lambda-streaming';
import { cachedAuthorizer, type Authorize } from '#lib/local/gateway/authorizer-cache';
import { answerClientError, continueUnlessTooLarge, declaresTooLargeBody, isClosing, readBody, refuseTooLargeBody, timeoutOptions } from '#lib/local/gateway/request-limits';
import { matchRoute, STAGE } from '#lib/local/gateway/route-matching';
import { isDashboardRequest, serveDashboard } from '#lib/local/gateway/dashboard-files';
import { isOidcPath, type OidcRequestHandler } from '#lib/local/oidc/oidc-handler';

export { STAGE } from '#lib/local/gateway/route-matching';

function send(response: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  const body = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : Buffer.from(result.body ?? '', 'utf8');
  response.writeHead(result.statusCode, { ...headers, 'Content-Length': String(body.length) });
  response.end(body);
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
  /** How long a request's headers and body may take to arrive before it is answered 408 (`requestTimeoutMsFromEnv`). */
  requestTimeoutMs: number;
  /** Serves `/oidc/*` (the embedded OpenID provider); set once the server listens (the issuer names its port). */
  oidc?: { handle?: OidcRequestHandler };
}

/**
 * Plays API Gateway (REST API, Lambda proxy integration) on a local HTTP server: matches the
 * route table, runs the Lambda authorizer the way the deployed API does (its answers cached per
 * Authorization header), and answers its own errors as the deployed API's gateway responses do
 * (problem+json 401, 404, 413, 503; 400, 408 and 431 for requests that are not HTTP, too slow or
 * too large to parse, gateway/request-limits.ts).
 */
export function createApiGateway(options: ApiGatewayOptions): Server {
  const authorize = cachedAuthorizer(options.authorizerCacheSeconds * 1000);
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    // A connection answered 408 or 413 lingers only to drop what it still sends: nothing on it is served.
    if (isClosing(request)) return void request.resume();
    handle(request, response, authorize, options.oidc).catch((error) => {
      if (!isClosing(request)) send(response, mapErrorToResponse(error));
    });
  };
  const server = createServer(timeoutOptions(options.requestTimeoutMs), listener);
  server.on('checkContinue', continueUnlessTooLarge(listener));
  server.on('clientError', answerClientError);
  return server;
}

async function handle(request: IncomingMessage, response: ServerResponse, authorize: Authorize, oidc: ApiGatewayOptions['oidc']): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (oidc && isOidcPath(url.pathname)) return serveOidc(oidc, request, response);
  // As API Gateway does: a body declared over the limit is refused from the headers, unread.
  if (declaresTooLargeBody(request)) return refuseTooLargeBody(request);
  const method = (request.method ?? 'GET').toUpperCase();
  // Everything outside /v1, /oidc and /health is the dashboard, as CloudFront serves it on AWS.
  if (isDashboardRequest(method, url.pathname, String(request.headers.accept ?? ''))) return serveDashboard(request, response, url.pathname);
  const match = matchRoute(method, url.pathname);
  if (!match) {
    request.resume();
    return send(response, problemResponse({ status: 404, code: 'route_not_found', detail: `No route matches ${method} ${url.pathname}.` }));
  }
  const body = await readBody(request);
  if (body === 'too_large') return refuseTooLargeBody(request);

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
  // A streaming route is a route like the others up to here (authorizer first), then answers as
  // its integration's STREAM response transfer mode does.
  if (match.route.streaming) return serveStreaming(match.route, event, response);
  const handler = await loadHandler(match.route.handler);
  const result = (await handler(event, lambdaContext(match.route.handler, 29))) as APIGatewayProxyResult;
  send(response, { ...result, headers: { ...result.headers, 'X-Request-Id': requestId } });
}

/** The embedded OpenID provider: not API Gateway's, so none of its rules apply; 503 until it is up. */
function serveOidc(oidc: NonNullable<ApiGatewayOptions['oidc']>, request: IncomingMessage, response: ServerResponse): void {
  if (oidc.handle) return oidc.handle(request, response);
  request.resume();
  send(response, problemResponse({ status: 503, code: 'service_unavailable', detail: 'The sign-in service is starting. Retry shortly.' }));
}

/** Lambda's hard limit, which the streaming handler must end before. */
const STREAMING_TIMEOUT_SECONDS = 900;

/**
 * Plays a REST API integration in STREAM response transfer mode (InvokeWithResponseStream): the
 * route's proxy event, and a response stream whose prelude (status, headers) goes out before the
 * first body byte, the body written as it is produced.
 */
async function serveStreaming(route: RouteDefinition, event: APIGatewayProxyEvent, response: ServerResponse): Promise<void> {
  const loaded: unknown = await loadHandler(route.handler);
  if (!isStreamingHandler(loaded)) throw new Error(`${route.handler} is not a streaming handler.`);
  const handler: StreamingHandler = loaded;
  const requestId = event.requestContext.requestId;
  let prelude: ResponsePrelude = { statusCode: 200, headers: {} };
  const writeHead = () => {
    if (!response.headersSent) response.writeHead(prelude.statusCode ?? 200, { ...prelude.headers, 'X-Request-Id': requestId });
  };
  const stream = new Writable({
    write(chunk, _encoding, done) {
      writeHead();
      response.write(chunk, done);
    },
    final(done) {
      writeHead();
      response.end(done);
    },
  }) as LocalResponseStream;
  stream.setPrelude = (value) => (prelude = value);
  // A client that goes away ends the stream, as a closed connection to API Gateway does.
  response.on('close', () => stream.destroy());
  await handler(event, stream, lambdaContext(route.handler, STREAMING_TIMEOUT_SECONDS)).catch((error: unknown) => {
    if (!response.headersSent) send(response, mapErrorToResponse(error));
    else response.destroy();
  });
}
