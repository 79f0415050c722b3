import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { problemResponse } from '#shared/http/problem';
import { findProblemType, renderProblemType } from '#shared/http/problem-catalog';
import { SECURITY_HEADERS } from '#shared/http/response';

interface GatewayProblem {
  type: ResponseType;
  /** Omitted for the catch-alls: they cover several statuses and the template cannot tell which. */
  status?: number;
  code: string;
  /** A VTL template fragment; `$context` variables are filled in by API Gateway. */
  detail: string;
  retryAfterSeconds?: number;
}

/** Marks where the detail goes, so VTL expressions are not JSON-escaped into string literals. */
const DETAIL = '__detail__';

/**
 * Errors API Gateway answers itself, before any handler runs. Codes and bodies match what the
 * handlers (shared/http/problem.ts) and the local runtime return, so clients parse one shape.
 */
const GATEWAY_PROBLEMS: readonly GatewayProblem[] = [
  { type: ResponseType.UNAUTHORIZED, status: 401, code: 'unauthorized', detail: '"Send a valid API key or a signed-in person’s access token as `Authorization: Bearer <token>`."' },
  { type: ResponseType.ACCESS_DENIED, status: 403, code: 'forbidden', detail: '"The API key may not call this route."' },
  // REST APIs answer a path or method they do not know with this type (as a 403 by default).
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, status: 404, code: 'route_not_found', detail: '"No route matches $context.httpMethod $context.path."' },
  // The authorizer threw something other than `Unauthorized`: most likely the table did not answer.
  { type: ResponseType.AUTHORIZER_FAILURE, status: 503, code: 'service_unavailable', detail: '"The API key could not be checked right now. Retry shortly."', retryAfterSeconds: 2 },
  { type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR, status: 503, code: 'service_unavailable', detail: '"The API key could not be checked right now. Retry shortly."', retryAfterSeconds: 2 },
  { type: ResponseType.REQUEST_TOO_LARGE, status: 413, code: 'payload_too_large', detail: '"The request body is too large."' },
  { type: ResponseType.THROTTLED, status: 429, code: 'rate_limited', detail: '"Too many requests. Retry shortly."', retryAfterSeconds: 1 },
  { type: ResponseType.DEFAULT_4XX, code: 'request_rejected', detail: '$context.error.messageString' },
  { type: ResponseType.DEFAULT_5XX, code: 'gateway_error', detail: '"The gateway could not complete the request (request id $context.requestId)."' },
];

/** The problem+json body template of one gateway response; its title is the one its problem type documents. */
function problemTemplate({ status, code, detail }: GatewayProblem): string {
  const body: Record<string, unknown> = JSON.parse(problemResponse({ status: status ?? 0, code, detail: DETAIL }).body);
  const documented = findProblemType(code);
  if (!documented) throw new Error(`The gateway response code '${code}' is not in shared/http/problem-catalog.ts.`);
  if (status === undefined) delete body.status;
  body.title = renderProblemType(documented).title;
  return JSON.stringify(body).replace(JSON.stringify(DETAIL), detail);
}

/** Makes every error API Gateway produces itself an RFC 9457 problem+json response. */
export function addProblemGatewayResponses(api: RestApi): void {
  for (const problem of GATEWAY_PROBLEMS) {
    api.addGatewayResponse(problem.type.responseType, {
      type: problem.type,
      ...(problem.status ? { statusCode: String(problem.status) } : {}),
      responseHeaders: {
        'Content-Type': "'application/problem+json'",
        // the same nosniff/no-store as every handler answer (OWASP API8)
        ...Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([name, value]) => [name, `'${value}'`])),
        ...(problem.retryAfterSeconds ? { 'Retry-After': `'${problem.retryAfterSeconds}'` } : {}),
      },
      templates: { 'application/json': problemTemplate(problem) },
    });
  }
}
