import { API_VERSION, routes, type RouteDefinition } from '#functions/routes';

/**
 * What the route-table-driven security tests (OWASP list, fuzzing) need to call any route: a
 * valid body and the required query per route. Routes come from functions/routes.ts, so a route
 * added later is called by those tests automatically; when it needs a body or a query that is
 * not listed here, its object-level case answers 400 instead of 404 and fails, asking for one.
 */

export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/** `{name}` segments of a route path, in order. */
export function pathParams(route: RouteDefinition): string[] {
  return [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]);
}

/** Request path (with the version prefix) with each `{param}` replaced by its percent-encoded value. */
export function fillPath(route: RouteDefinition, values: Record<string, string>, encode: (value: string) => string = encodeURIComponent): string {
  const filled = route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    if (values[name] === undefined) throw new Error(`no value for {${name}} of ${routeKey(route)}`);
    return encode(values[name]);
  });
  return route.unversioned ? filled : `/${API_VERSION}${filled}`;
}

/** The routes a client calls with an API key or access token. */
export const authenticatedRoutes = routes.filter((route) => route.auth !== 'none');

/**
 * The public routes are of two kinds. GETs are static documents (health, problem types, the
 * OpenAPI document): nothing to authorize. The others are provider callbacks (Slack's
 * interactions and events): no API key either, but each request must carry the provider's
 * signature over its raw body, made with the integration's signing secret; unsigned or forged ones
 * are 401 and an id that is no such integration 404. They take the provider's bodies (form-encoded
 * or JSON), so their samples are raw text (`signedCallbackSamples`), not `validBodies`.
 */
export const signedCallbackRoutes = routes.filter((route) => route.auth === 'none' && route.method !== 'GET');

/** A Slack workspace no integration under test belongs to: what it sends is verified, then ignored. */
export const FOREIGN_SLACK_TEAM = 'T0ELSEWHERE';

/** A raw body each signed callback route accepts once signed, with its content type, as the provider sends it. */
export const signedCallbackSamples: Record<string, { contentType: string; body: string }> = {
  // A button click of another workspace than the integration's: verified, then ignored (200), so it changes nothing.
  'POST /integrations/{integration_id}/slack/interactions': {
    contentType: 'application/x-www-form-urlencoded',
    body: `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', user: { id: 'U0SAMPLE', team_id: FOREIGN_SLACK_TEAM }, team: { id: FOREIGN_SLACK_TEAM }, trigger_id: '1.2.abc', actions: [{ action_id: 'approve', value: 'apr_none' }] }))}`,
  },
  // Slack's URL check when the Events URL is saved: answered with the challenge, nothing stored.
  'POST /integrations/{integration_id}/slack/events': { contentType: 'application/json', body: JSON.stringify({ token: 'unused', challenge: 'sample-challenge', type: 'url_verification' }) },
};

/** A body each writing route accepts (given ids that exist); routes without one take no body. */
export const validBodies: Record<string, Record<string, unknown>> = {
  'POST /agents/deploy': { agent_slug: 'ai-readiness', name: 'AI readiness' },
  'PATCH /agents/{agent_id}/config': { approval_ttl_hours: 12 },
  'POST /tasks': { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } },
  'POST /sessions': { agent: 'ai-readiness', title: 'Sample session' },
  'POST /sessions/{session_id}/messages': { content: 'Hello' },
  'POST /sessions/{session_id}/close': { reason: 'done' },
  'POST /triggers': { name: 'Sample trigger', source: { type: 'schedule', cron: '0 8 * * 1', timezone: 'Europe/Berlin' }, task: { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } } },
  'PATCH /triggers/{trigger_id}': { enabled: false },
  // The deployment's own SES sending: nothing of the tenant's to check with a provider, so this
  // body connects at once and no test reaches a network with it. Tests that connect GitHub or
  // Slack start a loopback provider (test/support/providers) and name it in `settings.api_url`:
  // without one the default is the real api.github.com or slack.com.
  'POST /integrations': { kind: 'email', name: 'Sample mail', credentials: { ses: true }, settings: { from: 'Sales <sales@example.com>' } },
  'PATCH /integrations/{integration_id}': { name: 'Renamed integration' },
  'POST /approvals/{approval_id}/resolve': { decision: 'denied', comment: 'not now' },
  'POST /webhooks': { url: 'https://hooks.example.com/gatehouse', events: ['task.complete'], secret: 'whsec-0123456789abcdef' },
  'PATCH /webhooks/{webhook_id}': { events: ['task.complete', 'task.failed'] },
  'POST /webhooks/{webhook_id}/rotate-secret': { secret: 'whsec-rotated-0123456789' },
  'POST /webhooks/{webhook_id}/recover': { since: '2020-01-01T00:00:00Z' },
  'POST /projects': { name: 'Site', target: 'https://www.example.com/' },
  'PATCH /projects/{project_id}': { name: 'Renamed site' },
  'POST /projects/{project_id}/scans': { detectors: ['security'] },
  'PATCH /settings/retention': { retention_days: 30 },
  'POST /api-keys': { name: 'ci key', role: 'viewer' },
  'POST /members': { email: 'sample.member@example.com', role: 'viewer' },
  'PATCH /members/{user_id}': { role: 'viewer' },
  'PATCH /findings/{finding_id}': { status: 'dismissed', dismissed_reason: 'false_positive', comment: 'test fixture' },
  // The worker protocol (role `agent`): a lease id that holds no task answers 409 `lease_lost`, so these change nothing.
  'POST /agents/{agent_id}/claims': { wait_seconds: 0, lease_seconds: 30 },
  'POST /tasks/{task_id}/heartbeat': { lease_id: 'lse_none', progress: 0.5 },
  'POST /tasks/{task_id}/artifacts': { lease_id: 'lse_none', type: 'invoice.check_report', data: { ok: true } },
  'POST /tasks/{task_id}/approvals': { lease_id: 'lse_none', title: 'Pay it', description: 'Pay the invoice.', action: { type: 'invoice.pay', invoice_number: 'INV-1' } },
  'POST /tasks/{task_id}/tool-calls': { lease_id: 'lse_none', tool: 'github.read_file', args: { repository: 'acme/invoices', path: 'README.md' } },
  'POST /tasks/{task_id}/complete': { lease_id: 'lse_none' },
  'POST /tasks/{task_id}/fail': { lease_id: 'lse_none', error: { code: 'sample_failure', message: 'A sample failure.' } },
  'POST /tasks/{task_id}/release': { lease_id: 'lse_none' },
};

/** The key a route-table-driven test calls a route with: the worker protocol takes an agent key, every other route an admin's. */
export function keyFor(route: Pick<RouteDefinition, 'role'>, keys: { admin: string; agent: string }): string {
  return route.role === 'agent' ? keys.agent : keys.admin;
}

/** Query parameters a route requires, as a function of the ids that exist. */
export const requiredQueries: Record<string, (ids: Record<string, string>) => Record<string, string>> = {
  'GET /artifacts': (ids) => ({ task_id: ids.task_id }),
  'GET /scans/{scan_id}/export': () => ({ format: 'json' }),
};

export function queryString(query: Record<string, string>): string {
  const text = new URLSearchParams(query).toString();
  return text ? `?${text}` : '';
}
