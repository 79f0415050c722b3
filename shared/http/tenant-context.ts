import type { RouteMiddleware } from '#shared/http/route-middleware';
import { UnauthorizedError } from '#shared/domain/errors';
import { isRole, type Caller } from '#shared/domain/roles';

/**
 * The caller the authorizer's context names (tenant, principal, role), or undefined when any part
 * is missing. API Gateway hands context values over as strings.
 */
export function callerFromContext(context: Record<string, unknown> | null | undefined): Caller | undefined {
  const { tenant_id: tenantId, principal_type: type, principal_id: id, principal_name: name, role, agent } = context ?? {};
  if (typeof tenantId !== 'string' || tenantId === '' || typeof id !== 'string' || id === '' || !isRole(role)) return undefined;
  if (type !== 'api_key' && type !== 'user') return undefined;
  // An agent key without its agent could act for none; fail closed as for any incomplete answer.
  if (role === 'agent' && (typeof agent !== 'string' || agent === '' || type !== 'api_key')) return undefined;
  return { tenantId, principal: { type, id, ...(typeof name === 'string' && name !== '' ? { name } : {}) }, role, ...(role === 'agent' ? { agent: agent as string } : {}) };
}

/**
 * Takes the tenant, principal and role that the API's authorizer resolved from the API key. API
 * Gateway (or the local runtime playing it) only invokes a route after the authorizer allowed the
 * call; this check is the second lock on the door, and it fails closed: an answer without a
 * principal or role (never given by the authorizer) is 401.
 */
export function tenantContext(): RouteMiddleware {
  return {
    before: async (request) => {
      const caller = callerFromContext(request.event.requestContext?.authorizer);
      if (!caller) throw new UnauthorizedError();
      request.internal.tenantId = caller.tenantId;
      request.internal.caller = caller;
    },
  };
}
