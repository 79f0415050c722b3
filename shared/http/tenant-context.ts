import type { RouteMiddleware } from '#shared/http/route-middleware';
import { UnauthorizedError } from '#shared/domain/errors';

/**
 * Takes the tenant that the API's authorizer resolved from the API key. API Gateway (or the
 * local runtime playing it) only invokes a route after the authorizer allowed the call; this
 * check is the second lock on the door.
 */
export function tenantContext(): RouteMiddleware {
  return {
    before: async (request) => {
      const tenantId = request.event.requestContext?.authorizer?.tenant_id;
      if (typeof tenantId !== 'string' || tenantId === '') throw new UnauthorizedError();
      request.internal.tenantId = tenantId;
    },
  };
}
