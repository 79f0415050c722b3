import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { CORRELATION_HEADER } from '#shared/observability/correlation';
import { invocationContext, type InvocationContext } from '#shared/observability/invocation-context';
import { runInLogContext, type LogFields } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { flushMetrics } from '#shared/observability/metrics';
import { tracer } from '#shared/observability/tracer';

export interface ObservedOptions {
  /** Lambda response streaming (the event stream): the result's body is piped out afterwards. */
  streaming?: boolean;
  /** Errors that are the function's protocol rather than a fault (the authorizer's `Unauthorized`). */
  isExpectedError?: (error: unknown) => boolean;
}

interface HttpResult {
  statusCode?: number;
  headers?: Record<string, string | number | boolean>;
  body?: unknown;
}

/** The invocation's context, found again by the after/onError hooks (contexts are per invocation). */
const invocations = new WeakMap<object, InvocationContext & { startedAt: number }>();

/** The problem `code` of a problem+json answer, so the access line says why a request failed. */
function problemCode(result: HttpResult): string | undefined {
  const type = Object.entries(result.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (typeof result.body !== 'string' || !String(type).includes('problem+json')) return undefined;
  try {
    const code = (JSON.parse(result.body) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Log context, correlation header and one access line per HTTP request. The access line is
 * written with the invocation's fields explicitly: it runs in a middleware, outside the async
 * context the handler ran in.
 */
function invocationLogging(options: ObservedOptions): middy.MiddlewareObj<unknown, unknown, Error, Context> {
  const accessLine = (fields: LogFields, route: string, startedAt: number, status: number, code?: string) => {
    const line = { ...fields, route, status, duration_ms: Date.now() - startedAt, ...(code ? { code } : {}) };
    if (status >= 500) logger.error('request', line);
    else logger.info('request', line);
  };
  return {
    before: async (request) => {
      invocations.set(request.context, { ...invocationContext(request.event, request.context), startedAt: Date.now() });
    },
    after: async (request) => {
      const invocation = invocations.get(request.context);
      const result = request.response as HttpResult | undefined;
      if (!invocation?.route || typeof result?.statusCode !== 'number') return;
      const correlationId = invocation.fields.correlation_id;
      if (typeof correlationId === 'string') result.headers = { ...result.headers, [CORRELATION_HEADER]: correlationId };
      accessLine(invocation.fields, invocation.route, invocation.startedAt, result.statusCode, problemCode(result));
    },
    onError: async (request) => {
      const invocation = invocations.get(request.context);
      if (options.isExpectedError?.(request.error)) return;
      logger.error('invocation failed', { ...invocation?.fields, error: request.error ?? undefined });
      if (invocation?.route) accessLine(invocation.fields, invocation.route, invocation.startedAt, 500);
    },
  };
}

/**
 * Wraps a Lambda handler with everything every Gatehouse function has: Powertools Logger (Lambda
 * context on every line), Metrics (flushed after every invocation, also a failed one), Tracer
 * (a segment per invocation, AWS SDK calls as subsegments; no response capture, since responses
 * may hold secrets shown once), and the log context that puts request, correlation, tenant and
 * path ids on every line the handler causes. Middy's early timeout stays off, as on plain Lambda.
 */
export function observedHandler<E, R>(handler: (event: E, context: Context) => Promise<R>, options: ObservedOptions = {}) {
  return middy<E, R, Error, Context>({ timeoutEarlyInMillis: 0, ...(options.streaming ? { streamifyResponse: true } : {}) })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(flushMetrics())
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(invocationLogging(options) as middy.MiddlewareObj<E, R, Error, Context>)
    .handler((event, context) => runInLogContext(invocations.get(context)?.fields ?? {}, () => handler(event, context)));
}
