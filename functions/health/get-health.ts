import type { APIGatewayProxyResult } from 'aws-lambda';
import { jsonResponse } from '#shared/http/response';
import { observedHandler } from '#shared/observability/observed-handler';

/** GET /health: no auth; the local runtime answers only once its engines are up. */
export const handler = observedHandler(async (): Promise<APIGatewayProxyResult> => jsonResponse(200, { status: 'ok' }));
