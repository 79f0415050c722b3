import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { RateLimitedError } from '#shared/domain/errors';
import type { RateLimitDecision } from '#shared/domain/rate-limit';
import type { HttpMiddleware } from '#shared/http/route-middleware';
import { spendRequest } from '#shared/services/request-budget';

/**
 * The IETF RateLimit fields of draft-ietf-httpapi-ratelimit-headers-06: three plain integers
 * that any client parses, and the form most gateways and client libraries implement. The newer
 * `RateLimit-Policy`/`RateLimit` pair (drafts 07+) is a structured field whose syntax still
 * changes between drafts. Limit is the bucket's size (the burst), Remaining the requests that
 * fit right now, Reset the seconds until the bucket is full again.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    ...(decision.allowed ? {} : { 'Retry-After': String(decision.retryAfterSeconds ?? 1) }),
  };
}

/**
 * Spends one request of the tenant's budget before anything else of the request runs (body
 * parsing, validation, idempotency, the handler), so a 429 changes nothing. The tenant comes
 * straight from the authorizer's context (without one, tenantContext answers 401 next), or from
 * the pipeline's own authentication where no authorizer runs (streaming routes).
 */
export function rateLimit<Event extends { requestContext?: unknown } = APIGatewayProxyEvent, Result = APIGatewayProxyResult>(): HttpMiddleware<Event, Result> {
  return {
    before: async (request) => {
      const authorizer = (request.event.requestContext as { authorizer?: { tenant_id?: unknown } } | undefined)?.authorizer;
      const tenantId = request.internal.tenantId ?? authorizer?.tenant_id;
      if (typeof tenantId !== 'string' || tenantId === '') return;
      const decision = await spendRequest(tenantId);
      request.internal.rateLimit = decision;
      if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds ?? 1);
    },
  };
}

/**
 * A middy plugin hook that puts the RateLimit fields on every response of a counted request:
 * success, mapped error, and the early return of an idempotent replay, which skips `after`
 * middlewares. It changes the response object in place: that object is what middy returns.
 */
export const rateLimitHeadersPlugin: middy.PluginObject = {
  requestEnd: (request: middy.Request<unknown, APIGatewayProxyResult>) => {
    const decision = (request.internal as { rateLimit?: RateLimitDecision }).rateLimit;
    if (!decision || !request.response) return;
    request.response.headers = { ...request.response.headers, ...rateLimitHeaders(decision) };
  },
};
