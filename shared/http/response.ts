import type { APIGatewayProxyResult } from 'aws-lambda';

/**
 * Headers every API answer carries (OWASP API8): answers are per-tenant data, so no shared cache
 * may keep them, and a browser must not guess another content type than the one declared.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { 'Content-Type': 'application/json', ...SECURITY_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function emptyResponse(statusCode = 204): APIGatewayProxyResult {
  return { statusCode, headers: { ...SECURITY_HEADERS }, body: '' };
}
