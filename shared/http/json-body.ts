import type { RouteMiddleware } from '#shared/http/route-middleware';
import { limits } from '#shared/config/limits';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '#shared/domain/errors';
import { header } from '#shared/http/request-context';

/**
 * Parses a JSON body. Over the body limit (GATEHOUSE_MAX_BODY_BYTES, at most and by default 1 MiB) is 413, a body that is not declared as JSON is 415, and JSON
 * that does not parse is 400. The parsed value goes to `request.internal.body`.
 */
export function jsonBody(): RouteMiddleware {
  return {
    before: async (request) => {
      const { event } = request;
      const raw = event.body ?? '';
      const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
      const { maxBodyBytes } = limits();
      if (Buffer.byteLength(text, 'utf8') > maxBodyBytes) throw new PayloadTooLargeError(maxBodyBytes);
      if (text.trim() === '') {
        request.internal.body = undefined;
        return;
      }
      const contentType = header(event, 'content-type') ?? '';
      if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType.trim())) throw new UnsupportedMediaTypeError();
      try {
        request.internal.body = JSON.parse(text);
      } catch (error) {
        throw new InvalidRequestError(`The body is not valid JSON: ${(error as Error).message}`, [], 'malformed_json');
      }
    },
  };
}
