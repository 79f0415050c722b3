import type { APIGatewayProxyResult } from 'aws-lambda';
import { observedHandler } from '#shared/observability/observed-handler';

/** GET /health: no auth; the local runtime answers only once its engines are up. */
export const handler = observedHandler(async (): Promise<APIGatewayProxyResult> => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ status: 'ok' }),
}));
