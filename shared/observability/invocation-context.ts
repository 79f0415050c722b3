import type { Context } from 'aws-lambda';
import { wellFormedCorrelationId } from '#shared/observability/correlation';
import type { LogFields } from '#shared/observability/log-context';

/** The parts of API Gateway (REST) and Lambda Function URL events that identify a request. */
interface HttpLikeEvent {
  httpMethod?: string;
  resource?: string;
  rawPath?: string;
  headers?: Record<string, string | undefined> | null;
  pathParameters?: Record<string, string | undefined> | null;
  requestContext?: {
    requestId?: string;
    resourcePath?: string;
    authorizer?: Record<string, unknown> | null;
    http?: { method?: string; path?: string };
  };
}

/** What one invocation knows about itself before the handler runs. */
export interface InvocationContext {
  fields: LogFields;
  /** Set for HTTP requests (API routes, the event stream): `GET /tasks/{task_id}`. */
  route?: string;
}

function headerValue(headers: HttpLikeEvent['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === wanted) return value ?? undefined;
  return undefined;
}

/** Path identifiers (`task_id`, `scan_id`, ...) as sent, bounded so that junk cannot flood a line. */
function pathIds(parameters: HttpLikeEvent['pathParameters']): LogFields {
  return Object.fromEntries(Object.entries(parameters ?? {}).filter(([name, value]) => name.endsWith('_id') && typeof value === 'string').map(([name, value]) => [name, value!.slice(0, 128)]));
}

/**
 * Reads the request id, correlation id, tenant and path ids from an HTTP event (API Gateway
 * REST proxy, Lambda authorizer, Function URL). The correlation id is the caller's
 * `X-Correlation-Id` when well formed, else the API request id. Other events (queues, streams,
 * schedules) carry theirs per record, so only the Lambda request id is known here.
 */
export function invocationContext(event: unknown, context: Context): InvocationContext {
  const http = (event ?? {}) as HttpLikeEvent;
  const requestId = http.requestContext?.requestId;
  const method = http.httpMethod ?? http.requestContext?.http?.method;
  if (!requestId && !method) return { fields: {} };
  const tenantId = http.requestContext?.authorizer?.tenant_id;
  const resource = http.requestContext?.resourcePath ?? http.resource ?? http.rawPath ?? http.requestContext?.http?.path;
  return {
    fields: {
      request_id: requestId,
      correlation_id: wellFormedCorrelationId(headerValue(http.headers, 'x-correlation-id')) ?? requestId ?? context.awsRequestId,
      tenant_id: typeof tenantId === 'string' ? tenantId : undefined,
      ...pathIds(http.pathParameters),
    },
    route: method && resource ? `${method} ${resource}` : undefined,
  };
}
