import type * as z from '#shared/zod';
import { InvalidRequestError, type FieldError } from '#shared/domain/errors';
import type { RouteMiddleware } from '#shared/http/route-middleware';

/** The zod schemas of a route's parts; a part without one is passed through unchecked. */
export interface RouteSchemas<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown, H extends z.ZodType = z.ZodUnknown> {
  body?: B;
  query?: Q;
  params?: P;
  /** Headers, by lower-case name. */
  headers?: H;
}

export interface RequestParts {
  body?: unknown;
  query: unknown;
  params: unknown;
  headers?: Record<string, string | undefined>;
}

export interface ValidParts<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, H extends z.ZodType> {
  body: z.infer<B>;
  query: z.infer<Q>;
  params: z.infer<P>;
  headers: z.infer<H>;
}

function parsePart<T extends z.ZodType>(schema: T | undefined, value: unknown, prefix: string, errors: FieldError[]): z.infer<T> | undefined {
  if (!schema) return value as z.infer<T>;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  errors.push(...result.error.issues.map((issue) => ({ path: [prefix, ...issue.path.map(String)].join('.'), message: issue.message })));
  return undefined;
}

function isAbsentBody(body: unknown): boolean {
  return body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
}

/** Lower-case header names, so a schema names each header one way whatever the client's spelling. */
function lowerCased(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * Validates every part of a request against its schema and returns the parsed parts, or throws
 * one 400 (validation_error) listing every violation with its path (`body.x`, `query.limit`,
 * `path.task_id`, `headers.last-event-id`).
 */
export function validateRequest<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, H extends z.ZodType>(schemas: RouteSchemas<B, Q, P, H>, parts: RequestParts): ValidParts<B, Q, P, H> {
  const errors: FieldError[] = [];
  const params = parsePart(schemas.params, parts.params, 'path', errors);
  const query = parsePart(schemas.query, parts.query, 'query', errors);
  const headers = parsePart(schemas.headers, lowerCased(parts.headers ?? {}), 'headers', errors);
  let body;
  // A route without a body schema takes no body (`{}` aside, which many clients send with a
  // POST): ignoring fields would let a client believe they were applied (OWASP API3).
  if (!schemas.body && !isAbsentBody(parts.body)) errors.push({ path: 'body', message: 'this route takes no request body' });
  else body = parsePart(schemas.body, parts.body, 'body', errors);
  if (errors.length > 0) throw new InvalidRequestError('The request does not match the documented shape.', errors);
  return { body, query, params, headers } as ValidParts<B, Q, P, H>;
}

/** Validates body, query and path of an API route against its schemas (400 problem+json listing every violation). */
export function validation(schemas: RouteSchemas<z.ZodType, z.ZodType, z.ZodType>): RouteMiddleware {
  return {
    before: async (request) => {
      const { event } = request;
      const valid = validateRequest(schemas, { params: event.pathParameters ?? {}, query: event.queryStringParameters ?? {}, body: request.internal.body });
      Object.assign(request.internal, { params: valid.params, query: valid.query, body: valid.body });
    },
  };
}
