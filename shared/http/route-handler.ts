import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from '#shared/zod';
import { errorMapper } from '#shared/http/error-mapper';
import { idempotency } from '#shared/http/idempotency';
import { jsonBody } from '#shared/http/json-body';
import { rateLimit, rateLimitHeadersPlugin } from '#shared/http/rate-limit';
import { handOver, routeOf, type RouteInternal, type RouteRequest } from '#shared/http/request-context';
import { requestLimits } from '#shared/http/request-limits';
import { validation, type RouteSchemas } from '#shared/http/request-validation';
import { tenantContext } from '#shared/http/tenant-context';
import { observedHandler } from '#shared/observability/observed-handler';

/**
 * Builds a Lambda handler for one API route: the tenant's rate limit and URI caps first (so a 429,
 * 414 or 400 of theirs changes nothing), JSON body parsing, tenant from the authorizer, zod
 * validation of body, query and path (400 problem+json listing every violation), Idempotency-Key
 * for POSTs, and the one error mapper. The route function only sees valid, typed input. Logger,
 * metrics, tracer and the access line wrap the whole chain (observedHandler), so they see every
 * answer, early ones (idempotent replays) and mapped errors included.
 */
export function routeHandler<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown>(
  schemas: RouteSchemas<B, Q, P>,
  handle: (request: RouteRequest<z.infer<B>, z.infer<Q>, z.infer<P>>) => Promise<APIGatewayProxyResult>,
) {
  const route = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RouteInternal>(rateLimitHeadersPlugin)
    .use(errorMapper())
    .use([rateLimit(), requestLimits()])
    .use(jsonBody())
    .use(tenantContext())
    .use(validation(schemas))
    .use(idempotency())
    .use(handOver)
    .handler(async (event, context) => {
      const internal = routeOf(context);
      return handle({
        tenantId: internal.tenantId as string,
        body: internal.body as z.infer<B>,
        query: internal.query as z.infer<Q>,
        params: internal.params as z.infer<P>,
        requestId: event.requestContext?.requestId ?? context.awsRequestId,
        event,
      });
    });
  return observedHandler(route);
}
