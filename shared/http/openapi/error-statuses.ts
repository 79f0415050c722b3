import type { RouteDefinition } from '#functions/routes';
import type { OperationSpec } from '#shared/http/openapi/operation';

/**
 * The problem+json statuses a route can answer, from its shape: every request can be malformed
 * (400) or have too long a query (414); a key is checked (401), may lack the role (403) and spends
 * the tenant's budget (429); a path names a record that may not exist (404); a body can be too
 * large, not JSON (413, 415; a public callback takes any type) or conflict with the state or an earlier Idempotency-Key (409).
 */
export function errorStatuses(route: RouteDefinition, operation: OperationSpec | undefined): number[] {
  const statuses = new Set<number>([400, 414, ...(operation?.errors ?? [])]);
  if (route.auth !== 'none') [401, 403, 429].forEach((status) => statuses.add(status));
  if (route.path.includes('{')) statuses.add(404);
  if (route.method !== 'GET' && route.auth !== 'none') statuses.add(409);
  if (route.method === 'POST' || route.method === 'PATCH') statuses.add(413);
  // A public POST is a provider's signed callback (Slack): any media type, its signature checked instead.
  if ((route.method === 'POST' || route.method === 'PATCH') && route.auth !== 'none') statuses.add(415);
  return [...statuses].sort((a, b) => a - b);
}
