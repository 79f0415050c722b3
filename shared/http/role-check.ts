import { routes } from '#functions/routes';
import { ForbiddenError } from '#shared/domain/errors';
import { allows, type Caller, type Role } from '#shared/domain/roles';
import type { HttpMiddleware } from '#shared/http/route-middleware';

/**
 * The least role of a route of the table. Fails closed: a handler served under a method and
 * path the table does not list (a wiring mistake) is refused with an error, never let through.
 */
export function leastRoleOf(method: string, path: string): Role {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  if (!route?.role) throw new Error(`No role is declared for ${method} ${path} in functions/routes.ts.`);
  return route.role;
}

/** 403 `forbidden` unless the caller's role covers `required`. */
export function assertRole(caller: Caller, required: Role): void {
  if (allows(caller.role, required)) return;
  if (required === 'agent') throw new ForbiddenError(`Only an API key of role 'agent', bound to a custom agent, calls the worker protocol; the caller's role is '${caller.role}'.`);
  if (caller.role === 'agent') throw new ForbiddenError(`An agent key calls its agent's worker protocol and nothing else (docs/workers.md); this action needs the '${required}' role.`);
  throw new ForbiddenError(`This action needs the '${required}' role (or admin); the caller's role is '${caller.role}'.`);
}

/**
 * Checks the caller's role against the route's least role, read from the route table by the
 * route's method and path template. Here, not in the authorizer: API Gateway caches the
 * authorizer's answer per Authorization header for every route alike.
 */
export function roleCheck<Event, Result>(routeOf: (event: Event) => { method: string; path: string }): HttpMiddleware<Event, Result> {
  return {
    before: async (request) => {
      const { method, path } = routeOf(request.event);
      assertRole(request.internal.caller as Caller, leastRoleOf(method, path));
    },
  };
}
