import type { APIGatewayProxyEvent } from 'aws-lambda';

/** What a route handler receives once the middlewares have authenticated and validated. */
export interface RouteRequest<Body = unknown, Query = unknown, Params = unknown> {
  tenantId: string;
  body: Body;
  query: Query;
  params: Params;
  requestId: string;
  event: APIGatewayProxyEvent;
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
  body?: unknown;
  query?: unknown;
  params?: unknown;
  idempotencyKey?: string;
}
