import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from '#shared/zod';
import { InvalidRequestError, type FieldError } from '#shared/domain/errors';
import { errorMapper } from '#shared/http/error-mapper';
import { idempotency } from '#shared/http/idempotency';
import { jsonBody } from '#shared/http/json-body';
import { rateLimit, rateLimitHeadersPlugin } from '#shared/http/rate-limit';
import type { RouteInternal, RouteRequest } from '#shared/http/request-context';
import { requestLimits } from '#shared/http/request-limits';
import { tenantContext } from '#shared/http/tenant-context';
import { observedHandler } from '#shared/observability/observed-handler';

type ContextWithRoute = Context & { route?: Record<string, unknown> };

interface RouteSchemas<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  body?: B;
  query?: Q;
  params?: P;
}

function fieldErrors(prefix: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

function parsePart<T extends z.ZodType>(schema: T | undefined, value: unknown, prefix: string, errors: FieldError[]): z.infer<T> | undefined {
  if (!schema) return value as z.infer<T>;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  errors.push(...fieldErrors(prefix, result.error));
  return undefined;
}

function isAbsentBody(body: unknown): boolean {
  return body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
}

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
    .use({
      before: async (request) => {
        const errors: FieldError[] = [];
        const { event } = request;
        request.internal.params = parsePart(schemas.params, event.pathParameters ?? {}, 'path', errors);
        request.internal.query = parsePart(schemas.query, event.queryStringParameters ?? {}, 'query', errors);
        // A route without a body schema takes no body (`{}` aside, which many clients send with a
        // POST): ignoring fields would let a client believe they were applied (OWASP API3).
        if (!schemas.body && !isAbsentBody(request.internal.body)) errors.push({ path: 'body', message: 'this route takes no request body' });
        else request.internal.body = parsePart(schemas.body, request.internal.body, 'body', errors);
        if (errors.length > 0) throw new InvalidRequestError('The request does not match the documented shape.', errors);
      },
    })
    .use(idempotency())
    .use({
      // Middy hands the handler only (event, context); the validated parts travel on the context.
      before: async (request) => {
        (request.context as ContextWithRoute).route = request.internal;
      },
    })
    .handler(async (event, context) => {
      const internal = (context as ContextWithRoute).route ?? {};
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
