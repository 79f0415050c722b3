import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from '#shared/zod';
import { errorMapper } from '#shared/http/error-mapper';
import { jsonBody } from '#shared/http/json-body';
import { handOver, routeOf, type PublicRouteRequest, type RouteInternal } from '#shared/http/request-context';
import { requestLimits } from '#shared/http/request-limits';
import { validation, type RouteSchemas } from '#shared/http/request-validation';
import { observedHandler } from '#shared/observability/observed-handler';

/**
 * A route of `auth: 'none'` (the problem-type documentation): URI caps, validation of query and
 * path, the one error mapper; no tenant, so no request budget and no idempotency. It takes no body.
 * Apart from routeHandler, so that its bundle carries no database client.
 */
export function publicRouteHandler<Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown>(
  schemas: Omit<RouteSchemas<z.ZodUnknown, Q, P>, 'body'>,
  handle: (request: PublicRouteRequest<z.infer<Q>, z.infer<P>>) => Promise<APIGatewayProxyResult>,
) {
  const route = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RouteInternal>()
    .use(errorMapper())
    .use(requestLimits())
    .use(jsonBody())
    .use(validation(schemas))
    .use(handOver)
    .handler(async (event, context) => {
      const internal = routeOf(context);
      return handle({ query: internal.query as z.infer<Q>, params: internal.params as z.infer<P>, requestId: event.requestContext?.requestId ?? context.awsRequestId, event });
    });
  return observedHandler(route);
}
