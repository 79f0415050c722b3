import { limits } from '#shared/config/limits';
import { InvalidRequestError, UriTooLongError } from '#shared/domain/errors';
import type { RouteMiddleware } from '#shared/http/route-middleware';

/** Characters of the query as the client sent it, decoded: `name=value` pairs joined by `&`. */
function queryLength(query: Record<string, string[] | string | undefined>): number {
  let length = 0;
  for (const [name, values] of Object.entries(query)) {
    for (const value of [values ?? ''].flat()) length += name.length + 1 + value.length + 1;
  }
  return Math.max(0, length - 1);
}

/**
 * Caps the parts of a request that reach database keys and filters before any handler sees them:
 * a query string longer than the limit is 414, a path parameter longer than the limit 400 (no
 * identifier is that long, so the request cannot name anything). Bodies are capped by jsonBody.
 */
export function requestLimits(): RouteMiddleware {
  return {
    before: async ({ event }) => {
      const { maxQueryStringLength, maxPathParameterLength } = limits();
      const query = event.multiValueQueryStringParameters ?? event.queryStringParameters ?? {};
      if (queryLength(query) > maxQueryStringLength) {
        throw new UriTooLongError(`The query string is longer than ${maxQueryStringLength} characters.`);
      }
      for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
        if (value !== undefined && value.length > maxPathParameterLength) {
          throw new InvalidRequestError(`The path parameter '${name}' is longer than ${maxPathParameterLength} characters.`, [{ path: `path.${name}`, message: `must be at most ${maxPathParameterLength} characters` }], 'path_parameter_too_long');
        }
      }
    },
  };
}
