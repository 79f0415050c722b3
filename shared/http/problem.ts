import type { APIGatewayProxyResult } from 'aws-lambda';
import type { FieldError } from '#shared/domain/errors';
import { SECURITY_HEADERS } from '#shared/http/response';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
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
      type: `https://gatehouse.dev/problems/${code.replace(/_/g, '-')}`,
      title: TITLES[status] ?? 'Error',
      status,
      detail,
      code,
      ...(errors ? { errors } : {}),
    }),
  };
}
