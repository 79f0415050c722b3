import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { HttpMiddleware } from '#shared/http/route-middleware';
import { DomainError, RateLimitedError } from '#shared/domain/errors';
import { problemResponse } from '#shared/http/problem';
import { logger } from '#shared/observability/logger';

const STATUS_BY_KIND: Record<DomainError['kind'], number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

/** Errors of the AWS SDK that mean "a dependency is overloaded or unreachable", not "a bug". */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
]);

function isTransient(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  return TRANSIENT.has(name ?? '') || TRANSIENT.has(code ?? '') || (error as { $retryable?: unknown })?.$retryable !== undefined;
}

/** The one place where errors become HTTP responses. */
export function mapErrorToResponse(error: unknown, requestId?: string): APIGatewayProxyResult {
  if (error instanceof DomainError) {
    const status = STATUS_BY_KIND[error.kind];
    return problemResponse({
      status,
      code: error.code,
      detail: error.message,
      ...('errors' in error && Array.isArray(error.errors) ? { errors: error.errors } : {}),
      ...(status === 503 ? { headers: { 'Retry-After': '2' } } : {}),
      ...(error instanceof RateLimitedError ? { headers: { 'Retry-After': String(error.retryAfterSeconds) } } : {}),
    });
  }
  if (isTransient(error)) {
    return problemResponse({ status: 503, code: 'service_unavailable', detail: 'A dependency of the service is not answering. Retry shortly.', headers: { 'Retry-After': '2' } });
  }
  logger.error('unhandled error', { error: error instanceof Error ? error : String(error) });
  return problemResponse({ status: 500, code: 'internal_error', detail: `An unexpected error occurred. Quote request id ${requestId ?? 'unknown'} when reporting it.` });
}

/** Answers any error of the pipeline as problem+json; works for REST API and Function URL events alike. */
export function errorMapper<Event extends { requestContext?: { requestId?: string } } = APIGatewayProxyEvent, Result = APIGatewayProxyResult>(): HttpMiddleware<Event, Result> {
  return {
    onError: async (request) => {
      request.response = mapErrorToResponse(request.error, request.event.requestContext?.requestId) as Result;
    },
  };
}
