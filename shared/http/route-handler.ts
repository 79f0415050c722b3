import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from '#shared/zod';
import type { Caller } from '#shared/domain/roles';
import { errorMapper } from '#shared/http/error-mapper';
import { idempotency, type IdempotencyOptions } from '#shared/http/idempotency';
import { jsonBody } from '#shared/http/json-body';
import { rateLimit, rateLimitHeadersPlugin } from '#shared/http/rate-limit';
import { handOver, routeOf, type RouteInternal, type RouteRequest } from '#shared/http/request-context';
import { requestLimits } from '#shared/http/request-limits';
import { roleCheck } from '#shared/http/role-check';
import { validation, type RouteSchemas } from '#shared/http/request-validation';
import { tenantContext } from '#shared/http/tenant-context';
import { observedHandler } from '#shared/observability/observed-handler';

/**
 * Builds a Lambda handler for one API route: the tenant's rate limit and URI caps first (so a 429,
 * 414 or 400 of theirs changes nothing), the caller (tenant, principal, role) from the authorizer,
 * the caller's role against the route's least role (403 before the body is even read), JSON body
 * parsing, zod validation of body, query and path (400 problem+json listing every violation),
 * Idempotency-Key for POSTs, and the one error mapper. The route function only sees valid, typed
 * input. Logger, metrics, tracer and the access line wrap the whole chain (observedHandler), so
 * they see every answer, early ones (idempotent replays) and mapped errors included.
 */
export function routeHandler<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown>(
  schemas: RouteSchemas<B, Q, P>,
  handle: (request: RouteRequest<z.infer<B>, z.infer<Q>, z.infer<P>>) => Promise<APIGatewayProxyResult>,
  options: IdempotencyOptions = {},
) {
  const route = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RouteInternal>(rateLimitHeadersPlugin)
    .use(errorMapper())
    .use([rateLimit(), requestLimits()])
    .use(tenantContext())
    .use(roleCheck<APIGatewayProxyEvent, APIGatewayProxyResult>((event) => ({ method: event.httpMethod, path: event.resource })))
    .use(jsonBody())
    .use(validation(schemas))
    .use(idempotency(options))
    .use(handOver)
    .handler(async (event, context) => {
      const internal = routeOf(context);
      return handle({
        tenantId: internal.tenantId as string,
        caller: internal.caller as Caller,
        body: internal.body as z.infer<B>,
        query: internal.query as z.infer<Q>,
        params: internal.params as z.infer<P>,
        requestId: event.requestContext?.requestId ?? context.awsRequestId,
        event,
      });
    });
  return observedHandler(route);
}
