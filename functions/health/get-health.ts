import type { APIGatewayProxyResult } from 'aws-lambda';

/** GET /health: no auth; the local runtime answers only once its engines are up. */
export const handler = async (): Promise<APIGatewayProxyResult> => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ status: 'ok' }),
});
