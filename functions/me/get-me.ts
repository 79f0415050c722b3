import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { describeUser } from '#shared/services/members';

/** GET /me: who the request's credentials are, as the authorizer resolved them; a person with their email and name (an invitee: no tenant). */
export const handler = routeHandler({}, async ({ caller }) => {
  // An invitee belongs to no tenant yet: their email is what they were invited by.
  if (caller.role === 'invitee') return jsonResponse(200, { principal: { type: 'user', id: caller.principal.id, email: caller.principal.name }, tenant_id: null, role: caller.role });
  const principal = caller.principal.type === 'user' ? await describeUser(caller.tenantId, caller.principal) : caller.principal;
  return jsonResponse(200, { principal, tenant_id: caller.tenantId, role: caller.role });
});
