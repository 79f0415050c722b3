import { PassThrough } from 'node:stream';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type * as z from '#shared/zod';
import type { Caller } from '#shared/domain/roles';
import { errorMapper } from '#shared/http/error-mapper';
import { problemResponse } from '#shared/http/problem';
import { rateLimit, rateLimitHeadersPlugin } from '#shared/http/rate-limit';
import { handOver, header, routeOf, type RouteInternal } from '#shared/http/request-context';
import { requestLimits } from '#shared/http/request-limits';
import { validateRequest, type RouteSchemas } from '#shared/http/request-validation';
import { leastRoleOf, roleCheck } from '#shared/http/role-check';
import { SECURITY_HEADERS } from '#shared/http/response';
import type { HttpMiddleware, RouteMiddleware } from '#shared/http/route-middleware';
import { callerRecheck, streamRecheckMs } from '#shared/http/stream-caller-recheck';
import { tenantContext } from '#shared/http/tenant-context';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import type { CallerRecheck } from '#shared/streaming/event-stream';

/** A streaming answer: its body is piped to the client as it is written (Lambda response streaming). */
export interface StreamResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string | PassThrough;
}

type StreamMiddleware = HttpMiddleware<APIGatewayProxyEvent, StreamResult>;

export interface StreamingRouteRequest<Query, Headers> {
  tenantId: string;
  query: Query;
  headers: Headers;
  /** Time left before the function's time limit when the stream opens. */
  remainingMs: number;
  /** Checks the caller again (every `everyMs`), through the authorizer's own authentication. */
  recheck: { everyMs: number; check: CallerRecheck };
}

/** Writes the stream's Server-Sent Events until it returns; `write` returns false once the client is gone. */
export type EventStreamProducer = (write: (chunk: string) => boolean) => Promise<unknown>;

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
function bodyOf(event: APIGatewayProxyEvent): unknown {
  const raw = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (!raw?.trim()) return undefined;
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

/** The route pipeline's middlewares leave the answer alone, so they serve a streaming answer as they are. */
const forStream = (middleware: RouteMiddleware) => middleware as unknown as StreamMiddleware;

/**
 * Builds the handler of a streaming route (Server-Sent Events through the REST API's response
 * streaming), with the chain of the other routes: the tenant's request budget (429, RateLimit
 * headers on every answer after it), the URI caps, the caller the authorizer resolved (401 if
 * none), its role against the route's least role (403), `Accept` (406), zod validation of query
 * and headers (400 listing every violation), and the one error mapper; every refusal is
 * problem+json. The route function gets valid, typed input and a re-check of the caller (the
 * authorizer's authentication, every STREAM_RECHECK_SECONDS, at most 30 s) and returns the
 * producer of the stream's events.
 */
export function streamingRouteHandler<Q extends z.ZodType = z.ZodUnknown, H extends z.ZodType = z.ZodUnknown>(
  route: { path: string; query?: Q; headers?: H },
  handle: (request: StreamingRouteRequest<z.infer<Q>, z.infer<H>>) => Promise<EventStreamProducer>,
) {
  const chain = middy<APIGatewayProxyEvent, StreamResult, Error, Context, RouteInternal>(rateLimitHeadersPlugin)
    .use(errorMapper<APIGatewayProxyEvent, StreamResult>())
    .use([rateLimit<APIGatewayProxyEvent, StreamResult>(), forStream(requestLimits())])
    .use(forStream(tenantContext()))
    .use(roleCheck<APIGatewayProxyEvent, StreamResult>(() => ({ method: 'GET', path: route.path })))
    .use(acceptsEventStream())
    .use(validation({ query: route.query, headers: route.headers }))
    .use(handOver)
    .handler(async (event, context) => {
      const internal = routeOf(context);
      const recheck = { everyMs: streamRecheckMs(), check: callerRecheck(header(event, 'authorization'), internal.caller as Caller, leastRoleOf('GET', route.path)) };
      const request = { tenantId: internal.tenantId as string, query: internal.query as z.infer<Q>, headers: internal.headers as z.infer<H>, remainingMs: context.getRemainingTimeInMillis(), recheck };
      return eventStreamResult(await handle(request));
    });
  return observedHandler(chain, { streaming: true });
}
