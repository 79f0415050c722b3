import type middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Caller } from '#shared/domain/roles';

/** What a public route's handler receives once the middlewares have validated. */
export interface PublicRouteRequest<Query = unknown, Params = unknown> {
  query: Query;
  params: Params;
  requestId: string;
  event: APIGatewayProxyEvent;
}

/** What a route handler receives once the middlewares have authenticated and validated. */
export interface RouteRequest<Body = unknown, Query = unknown, Params = unknown> extends PublicRouteRequest<Query, Params> {
  tenantId: string;
  /** Who calls: tenant, principal and role, as the authorizer resolved them. */
  caller: Caller;
  body: Body;
}

/** Case-insensitive header lookup (API Gateway keeps the client's spelling). */
export function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** State the route middlewares pass along one request. */
export interface RouteInternal extends Record<string, unknown> {
  tenantId?: string;
  caller?: Caller;
  body?: unknown;
  query?: unknown;
  params?: unknown;
  idempotencyKey?: string;
}

type ContextWithRoute = Context & { route?: RouteInternal };

/**
 * The last middleware of a route pipeline: middy hands the handler only (event, context), so the
 * validated parts travel on the context, where routeOf finds them.
 */
export const handOver: middy.MiddlewareObj<unknown, unknown, Error, Context, RouteInternal> = {
  before: async (request) => {
    (request.context as ContextWithRoute).route = request.internal;
  },
};

/** The validated parts handOver put on the context. */
export function routeOf(context: Context): RouteInternal {
  return (context as ContextWithRoute).route ?? {};
}
