import { API_VERSION, routes, type RouteDefinition } from '#functions/routes';

/** The stage every versioned route is served under (`/v1`), as the deployed API's stage. */
export const STAGE = API_VERSION;

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
}

function compile(route: RouteDefinition): CompiledRoute {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([a-z_]+)\\?\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const prefix = route.unversioned ? '' : `/${STAGE}`;
  return { route, names, pattern: new RegExp(`^${prefix}${source}/?$`) };
}

const compiled = routes.map(compile);

/** Static segments of a path template as 0, `{variables}` as 1: lower sorts first (more specific). */
function specificity(path: string): number[] {
  return path.split('/').map((segment) => (segment.startsWith('{') ? 1 : 0));
}

function moreSpecific(left: number[], right: number[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index++) if (left[index] !== right[index]) return left[index] - right[index];
  return 0;
}

/**
 * REST API routing: the path picks one resource, static segments before `{variables}`
 * (`/agents/deploy` before `/agents/{agent_id}`), and only then the method; a method the
 * resource lacks is route_not_found, never another resource's method.
 */
export function matchRoute(method: string, pathname: string): { route: RouteDefinition; params: Record<string, string> } | undefined {
  let resource: { template: CompiledRoute; found: RegExpExecArray } | undefined;
  for (const candidate of compiled) {
    const found = candidate.pattern.exec(pathname);
    if (found && (!resource || moreSpecific(specificity(candidate.route.path), specificity(resource.template.route.path)) < 0)) resource = { template: candidate, found };
  }
  if (!resource) return undefined;
  const { template, found } = resource;
  const route = compiled.find((candidate) => candidate.route.path === template.route.path && candidate.route.method === method)?.route;
  if (!route) return undefined;
  try {
    return { route, params: Object.fromEntries(template.names.map((name, index) => [name, decodeURIComponent(found[index + 1])])) };
  } catch {
    return undefined;
  }
}

