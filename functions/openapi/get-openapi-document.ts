import { jsonResponse } from '#shared/http/response';
import { publicRouteHandler } from '#shared/http/public-route-handler';
import { openApiDocument } from '#functions/openapi/openapi-document';

/** GET /openapi.json: the machine-readable reference of every route; no API key needed. */
export const handler = publicRouteHandler({}, async () => jsonResponse(200, openApiDocument()));
