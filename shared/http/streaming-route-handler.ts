import { PassThrough } from 'node:stream';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as z from '#shared/zod';
import { API_VERSION } from '#shared/http/api-version';
import { errorMapper } from '#shared/http/error-mapper';
import { problemResponse } from '#shared/http/problem';
import { rateLimit, rateLimitHeadersPlugin } from '#shared/http/rate-limit';
import { handOver, routeOf, type RouteInternal } from '#shared/http/request-context';
import { validateRequest, type RouteSchemas } from '#shared/http/request-validation';
import { roleCheck } from '#shared/http/role-check';
import { SECURITY_HEADERS } from '#shared/http/response';
import type { HttpMiddleware } from '#shared/http/route-middleware';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { authenticate } from '#shared/services/authentication';

/** A streaming answer: its body is piped to the client as it is written (Lambda response streaming). */
export interface StreamResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string | PassThrough;
}

type StreamMiddleware = HttpMiddleware<APIGatewayProxyEventV2, StreamResult>;

export interface StreamingRouteRequest<Query, Headers> {
  tenantId: string;
  query: Query;
  headers: Headers;
  /** Time left before the function's time limit when the stream opens. */
  remainingMs: number;
}

/** Writes the stream's Server-Sent Events until it returns; `write` returns false once the client is gone. */
export type EventStreamProducer = (write: (chunk: string) => boolean) => Promise<unknown>;

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
}

/**
 * A Function URL hands every method and path to its one function: what the route table does not
 * list is answered as API Gateway answers it (404 route_not_found), so the two entry points agree (API5).
 */
function onlyRoute(path: string): StreamMiddleware {
  const routePath = `/${API_VERSION}${path}`;
  return {
    before: async ({ event }) => {
      const method = event.requestContext?.http?.method ?? 'GET';
      const rawPath = event.rawPath ?? routePath;
      if (method === 'GET' && rawPath.replace(/\/$/, '') === routePath) return undefined;
      return problemResponse({ status: 404, code: 'route_not_found', detail: `No route matches ${method} ${rawPath}.` }) as StreamResult;
    },
  };
}

/** No authorizer sits in front of a Function URL: the API key is checked here, with the authorizer's code. */
function apiKeyAuthentication(): StreamMiddleware {
  return {
    before: async (request) => {
      const caller = await authenticate(header(request.event, 'authorization'));
      request.internal.tenantId = caller.tenantId;
      request.internal.caller = caller;
      addLogContext({ tenant_id: caller.tenantId, key_id: caller.principal.id });
    },
  };
}

function acceptsEventStream(): StreamMiddleware {
  return {
    before: async ({ event }) => {
      const accept = header(event, 'accept');
      if (!accept || /text\/event-stream|\*\/\*/.test(accept)) return undefined;
      return problemResponse({ status: 406, code: 'not_acceptable', detail: 'This endpoint serves text/event-stream only.' }) as StreamResult;
    },
  };
}

/** The request's body as the other routes see it: absent, `{}`, or something this route refuses. */
function bodyOf(event: APIGatewayProxyEventV2): unknown {
  const raw = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function validation(schemas: Pick<RouteSchemas<z.ZodUnknown, z.ZodType, z.ZodUnknown, z.ZodType>, 'query' | 'headers'>): StreamMiddleware {
  return {
    before: async (request) => {
      const { event } = request;
      // A GET takes no body: refused like on every other route, never silently ignored.
      const valid = validateRequest(schemas, { params: {}, query: event.queryStringParameters ?? {}, headers: event.headers ?? {}, body: bodyOf(event) });
      Object.assign(request.internal, { query: valid.query, headers: valid.headers });
    },
  };
}

/** The 200 answer whose body the producer writes, ended when the producer returns or fails. */
function eventStreamResult(produce: EventStreamProducer): StreamResult {
  const body = new PassThrough();
  let open = true;
  body.on('close', () => (open = false));
  const write = (chunk: string) => {
    if (!open) return false;
    body.write(chunk);
    return true;
  };
  produce(write)
    .catch((error: Error) => logger.error('event stream failed', { error }))
    .finally(() => body.end());
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', ...SECURITY_HEADERS, 'Cache-Control': 'no-store, no-transform', 'X-Accel-Buffering': 'no' },
    body,
  };
}

/**
 * Builds the handler of a streaming route (Server-Sent Events behind a Function URL), with the
 * chain of the other routes: only its own method and path (404 otherwise), the API key (401),
 * the tenant's request budget (429, RateLimit headers on every answer after it), the caller's
 * role against the route's least role (403), `Accept` (406),
 * zod validation of query and headers (400 listing every violation), and the one error mapper;
 * every refusal is problem+json. The route function gets valid, typed input and returns the
 * producer of the stream's events.
 */
export function streamingRouteHandler<Q extends z.ZodType = z.ZodUnknown, H extends z.ZodType = z.ZodUnknown>(
  route: { path: string; query?: Q; headers?: H },
  handle: (request: StreamingRouteRequest<z.infer<Q>, z.infer<H>>) => Promise<EventStreamProducer>,
) {
  const chain = middy<APIGatewayProxyEventV2, StreamResult, Error, Context, RouteInternal>(rateLimitHeadersPlugin)
    .use(errorMapper<APIGatewayProxyEventV2, StreamResult>())
    .use(onlyRoute(route.path))
    .use(apiKeyAuthentication())
    .use(rateLimit<APIGatewayProxyEventV2, StreamResult>())
    .use(roleCheck<APIGatewayProxyEventV2, StreamResult>(() => ({ method: 'GET', path: route.path })))
    .use(acceptsEventStream())
    .use(validation({ query: route.query, headers: route.headers }))
    .use(handOver)
    .handler(async (_event, context) => {
      const internal = routeOf(context);
      const request = { tenantId: internal.tenantId as string, query: internal.query as z.infer<Q>, headers: internal.headers as z.infer<H>, remainingMs: context.getRemainingTimeInMillis() };
      return eventStreamResult(await handle(request));
    });
  return observedHandler(chain, { streaming: true });
}
