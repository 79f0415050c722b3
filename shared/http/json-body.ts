import type { RouteMiddleware } from '#shared/http/route-middleware';
import { limits } from '#shared/config/limits';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '#shared/domain/errors';
import { header } from '#shared/http/request-context';

/**
 * Deepest nesting a body may have. DynamoDB stores at most 32 levels per item and request bodies
 * (task input, a modified action) are stored a level or two down, so deeper bodies would fail at
 * the database as a 500; 20 is far beyond any documented shape.
 */
export const MAX_BODY_DEPTH = 20;

/**
 * Keys refused at any depth. `__proto__` is an own property after JSON.parse, but copying it (as
 * schema validation does) sets the copy's prototype instead. `constructor` makes the DynamoDB
 * marshaller misjudge a plain object's type (it reads `value.constructor.name`), which failed the
 * write as a 500. Neither is a key any documented body has.
 */
const FORBIDDEN_KEYS = ['__proto__', 'constructor'];

/** Why a parsed body is refused (nesting or a forbidden key), or undefined. */
function structuralProblem(value: unknown, depth = 0): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= MAX_BODY_DEPTH) return `The body is nested more than ${MAX_BODY_DEPTH} levels deep.`;
  const forbidden = Array.isArray(value) ? undefined : FORBIDDEN_KEYS.find((key) => Object.prototype.hasOwnProperty.call(value, key));
  if (forbidden) return `The body may not contain a \`${forbidden}\` key.`;
  for (const child of Object.values(value)) {
    const problem = structuralProblem(child, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Parses a JSON body. Over the body limit (GATEHOUSE_MAX_BODY_BYTES, at most and by default 1 MiB) is 413, a body that is not declared as JSON is 415, and JSON
 * that does not parse, nests too deep or carries a forbidden key is 400. The parsed value goes to
 * `request.internal.body`.
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
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw new InvalidRequestError(`The body is not valid JSON: ${(error as Error).message}`, [], 'malformed_json');
      }
      const problem = structuralProblem(body);
      if (problem) throw new InvalidRequestError(problem, [{ path: 'body', message: problem }], 'malformed_json');
      request.internal.body = body;
    },
  };
}
