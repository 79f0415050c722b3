import type { APIGatewayProxyResult } from 'aws-lambda';

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function emptyResponse(statusCode = 204): APIGatewayProxyResult {
  return { statusCode, headers: {}, body: '' };
}
