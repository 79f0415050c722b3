import type { APIGatewayProxyResult } from 'aws-lambda';
import { authorizer } from '#functions/routes';
import { ServiceUnavailableError, UnauthorizedError } from '#shared/domain/errors';
import { mapErrorToResponse } from '#shared/http/error-mapper';
import { problemResponse } from '#shared/http/problem';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { STAGE } from '#lib/local/gateway/route-matching';

export type AuthorizeOutcome = { context: Record<string, string> } | { problem: APIGatewayProxyResult };
export type Authorize = (headers: Record<string, string>, method: string, path: string, requestId: string) => Promise<AuthorizeOutcome>;

/** Bounds the cache: one entry per key in use, and a flood of made-up keys is never cached. */
const AUTHORIZER_CACHE_ENTRIES = 10_000;

/**
 * The authorizer behind API Gateway's result cache, keyed by the identity source (the
 * Authorization header): an Allow answer stands for `ttlMs`, so a key revoked meanwhile keeps
 * working until then, exactly as on AWS (docs/security.md). Refusals and failures are not kept:
 * a key created or a table back up a moment later works at once. As on a REST API, a request
 * without the identity source is 401 without a call.
 */
export function cachedAuthorizer(ttlMs: number): Authorize {
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
    if (error instanceof Error && error.message === 'Unauthorized') return { problem: mapErrorToResponse(new UnauthorizedError('The API key or access token is unknown, expired or revoked.')) };
    return { problem: mapErrorToResponse(new ServiceUnavailableError('The API key could not be checked right now. Retry shortly.')) };
  }
}

