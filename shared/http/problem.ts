import type { APIGatewayProxyResult } from 'aws-lambda';
import type { FieldError } from '#shared/domain/errors';
import { API_VERSION } from '#shared/http/api-version';
import { SECURITY_HEADERS } from '#shared/http/response';

/** The `title` of a problem answer: its status's reason phrase (shared/http/problem-catalog.ts documents each code). */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * Where a problem code is documented: `GET /v1/problems/<code>` of the API itself, with the code's
 * underscores as hyphens. A path-absolute reference (RFC 9457 allows relative ones), so it names a
 * page the deployment answering it serves, whatever its host.
 */
export function problemTypeUri(code: string): string {
  return `/${API_VERSION}/problems/${code.replace(/_/g, '-')}`;
}

export interface ProblemInput {
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
}

/** An RFC 9457 problem-details response; `type` is a stable URI per error code. */
export function problemResponse({ status, code, detail, errors, headers }: ProblemInput): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/problem+json', ...SECURITY_HEADERS, ...headers },
    body: JSON.stringify({
      type: problemTypeUri(code),
      title: STATUS_TITLES[status] ?? 'Error',
      status,
      detail,
      code,
      ...(errors ? { errors } : {}),
    }),
  };
}
