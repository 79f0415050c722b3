import { PassThrough } from 'node:stream';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as z from '#shared/zod';
import { eventRepository, lastIdAt } from '#shared/adapters/dynamodb/event-repository';
import { canonicalAgentFilter } from '#shared/agents/directory';
import { API_VERSION } from '#functions/routes';
import { getIntegerFromEnv } from '#shared/config/env';
import { EVENT_TYPES } from '#shared/domain/event';
import { InvalidRequestError, RateLimitedError, type FieldError } from '#shared/domain/errors';
import { mapErrorToResponse } from '#shared/http/error-mapper';
import { problemResponse } from '#shared/http/problem';
import { rateLimitHeaders } from '#shared/http/rate-limit';
import { SECURITY_HEADERS } from '#shared/http/response';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { authenticate } from '#shared/services/api-keys';
import { spendRequest } from '#shared/services/request-budget';
import { streamEvents } from '#shared/streaming/event-stream';

const streamQuery = z.object({
  task_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  agent: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  types: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((value: string) => value.split(',').map((part) => part.trim()).filter(Boolean)),
      ),
      z.array(z.enum(EVENT_TYPES)).check(z.minLength(1), z.maxLength(20)),
    ),
  ),
});
const lastEventId = z.string().check(z.regex(/^evt_[0-9a-hjkmnp-tv-z]{26}$/, 'must be an event id received from this stream'));

/** The one path this function serves, as the route table and the local runtime have it. */
const STREAM_PATH = `/${API_VERSION}/events/stream`;

type StreamResult = { statusCode: number; headers: Record<string, string>; body: string | PassThrough };

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
}

/**
 * GET /v1/events/stream: the tenant's events as Server-Sent Events, served by a Lambda with
 * response streaming behind a Function URL. There is no API Gateway authorizer in front of it, so
 * it checks the API key itself, with the same code. It closes before the function's time limit;
 * clients reconnect with Last-Event-ID and lose nothing.
 */
async function openStream(event: APIGatewayProxyEventV2, context: Context): Promise<StreamResult> {
  // A Function URL hands every method and path to this one function; answer what the route table
  // does not list as API Gateway does (404 route_not_found), so the two entry points agree (API5).
  const method = event.requestContext?.http?.method ?? 'GET';
  const path = event.rawPath ?? STREAM_PATH;
  if (method !== 'GET' || path.replace(/\/$/, '') !== STREAM_PATH) {
    return problemResponse({ status: 404, code: 'route_not_found', detail: `No route matches ${method} ${path}.` }) as StreamResult;
  }
  const { tenantId } = await authenticate(header(event, 'authorization'));
  // A connection attempt is a request of the tenant's budget like any other (reconnect storms too).
  const budget = await spendRequest(tenantId);
  if (!budget.allowed) {
    const limited = mapErrorToResponse(new RateLimitedError(budget.retryAfterSeconds ?? 1), context.awsRequestId);
    return { ...limited, headers: { ...limited.headers, ...rateLimitHeaders(budget) } } as StreamResult;
  }
  addLogContext({ tenant_id: tenantId });
  const accept = header(event, 'accept');
  if (accept && !/text\/event-stream|\*\/\*/.test(accept)) {
    return problemResponse({ status: 406, code: 'not_acceptable', detail: 'This endpoint serves text/event-stream only.' }) as StreamResult;
  }
  const parsed = streamQuery.safeParse(event.queryStringParameters ?? {});
  const resumeFrom = header(event, 'last-event-id') ?? event.queryStringParameters?.last_event_id;
  const resume = resumeFrom === undefined ? undefined : lastEventId.safeParse(resumeFrom);
  const errors: FieldError[] = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: ['query', ...issue.path.map(String)].join('.'), message: issue.message }))),
    ...(resume && !resume.success ? [{ path: 'headers.last-event-id', message: resume.error.issues[0].message }] : []),
  ];
  if (errors.length > 0 || !parsed.success) throw new InvalidRequestError('The request does not match the documented shape.', errors);
  const filters = {
    taskId: parsed.data.task_id,
    agent: parsed.data.agent ? canonicalAgentFilter(parsed.data.agent) : undefined,
    types: parsed.data.types,
  };

  const maxSeconds = getIntegerFromEnv('STREAM_MAX_SECONDS', 840);
  const deadline = Date.now() + Math.min(maxSeconds * 1000, context.getRemainingTimeInMillis() - 10_000);
  const body = new PassThrough();
  let open = true;
  body.on('close', () => (open = false));
  streamEvents(
    { after: async (afterId, untilId, limit) => (await eventRepository.after(tenantId, filters, afterId, untilId, limit)).events, idAt: lastIdAt },
    {
      lastEventId: resume?.success ? resume.data : undefined,
      deadline,
      heartbeatMs: getIntegerFromEnv('STREAM_HEARTBEAT_SECONDS', 15) * 1000,
      pollMs: getIntegerFromEnv('STREAM_POLL_MILLISECONDS', 500),
      settleMs: 1_000,
      reconnectMs: 1_000,
    },
    (chunk) => {
      if (!open) return false;
      body.write(chunk);
      return true;
    },
  )
    .catch((error: Error) => logger.error('event stream failed', { error }))
    .finally(() => body.end());
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', ...SECURITY_HEADERS, 'Cache-Control': 'no-store, no-transform', 'X-Accel-Buffering': 'no', ...rateLimitHeaders(budget) },
    body,
  };
}

export const handler = observedHandler(
  (event: APIGatewayProxyEventV2, context: Context) => openStream(event, context).catch((error: unknown) => mapErrorToResponse(error, context.awsRequestId) as StreamResult),
  { streaming: true },
);
