import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from '#shared/zod';
import { PayloadTooLargeError } from '#shared/domain/errors';
import { limits } from '#shared/config/limits';
import { errorMapper } from '#shared/http/error-mapper';
import { handOver, routeOf, type RouteInternal } from '#shared/http/request-context';
import { requestLimits } from '#shared/http/request-limits';
import { validation } from '#shared/http/request-validation';
import { observedHandler } from '#shared/observability/observed-handler';

export interface SignedCallbackRequest<Params> {
  params: Params;
  /** The body exactly as sent: a signature covers its bytes, so it is never parsed or re-encoded first. */
  rawBody: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  requestId: string;
}

/**
 * A route that a provider calls with a signed body (Slack's interactions and events): no API key,
 * any content type; the path is validated and the raw body handed over for its signature check.
 */
export function signedCallbackHandler<P extends z.ZodType>(schemas: { params: P }, handle: (request: SignedCallbackRequest<z.infer<P>>) => Promise<APIGatewayProxyResult>) {
  const route = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RouteInternal>()
    .use(errorMapper())
    .use(requestLimits())
    .use(validation(schemas))
    .use(handOver)
    .handler(async (event, context) => {
      const headers = Object.fromEntries(Object.entries(event.headers ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string').map(([name, value]) => [name.toLowerCase(), value]));
      const rawBody = event.body == null ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      // The same cap as every JSON body: nothing larger is read or handed on.
      const { maxBodyBytes } = limits();
      if (Buffer.byteLength(rawBody, 'utf8') > maxBodyBytes) throw new PayloadTooLargeError(maxBodyBytes);
      return handle({ params: routeOf(context).params as z.infer<P>, rawBody, headers, requestId: event.requestContext?.requestId ?? context.awsRequestId });
    });
  return observedHandler(route);
}
