import { listProblemTypes } from '#shared/http/problem-catalog';
import { jsonResponse } from '#shared/http/response';
import { publicRouteHandler } from '#shared/http/public-route-handler';

/** GET /problems: every problem type the API answers with; no API key needed. */
export const handler = publicRouteHandler({}, async () => jsonResponse(200, { data: listProblemTypes(), has_more: false, next_cursor: null }));
