import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';

/** GET /me: who the request's credentials are, as the authorizer resolved them. */
export const handler = routeHandler({}, async ({ caller }) => jsonResponse(200, { principal: caller.principal, tenant_id: caller.tenantId, role: caller.role }));
