import { API_KEYS } from './people';

type Tenant = keyof typeof API_KEYS;

/** Calls the API with a tenant's key: test data is made the way a script would, not through the page. */
export async function callApi<T>(baseUrl: string, tenant: Tenant, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${API_KEYS[tenant]}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

interface Agent {
  agent_id: string;
  agent_slug: string;
  name: string;
}

/**
 * The tenant's agent of that slug or alias, deployed under `name` if it is not yet. A tenant
 * deploys a slug once, so an agent an earlier spec deployed keeps the name it was given then.
 */
export async function ensureAgent(baseUrl: string, tenant: Tenant, slug: string, name: string): Promise<Agent> {
  const deployed = await fetch(`${baseUrl}/v1/agents/${encodeURIComponent(slug)}`, { headers: { Authorization: `Bearer ${API_KEYS[tenant]}` } });
  if (deployed.ok) return (await deployed.json()) as Agent;
  if (deployed.status !== 404) throw new Error(`GET /agents/${slug} answered ${deployed.status}: ${await deployed.text()}`);
  return callApi<Agent>(baseUrl, tenant, 'POST', '/agents/deploy', { agent_slug: slug, name });
}
