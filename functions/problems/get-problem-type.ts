import { describeProblemType } from '#shared/http/problem-catalog';
import { jsonResponse } from '#shared/http/response';
import { publicRouteHandler } from '#shared/http/public-route-handler';
import { problemTypeParams } from '#functions/problems/schemas';

/** GET /problems/{code}: what an error answer's `type` points at; no API key needed. */
export const handler = publicRouteHandler({ params: problemTypeParams }, async ({ params }) => jsonResponse(200, describeProblemType(params.code)));
