import { readFileSync } from 'node:fs';
import { apiClient } from './local-runtime';

/** The example's manifest file: what the tests deploy is what README's walk-through deploys. */
const MANIFEST_FILE = new URL('../../examples/invoice-checker/manifest.json', import.meta.url);

/** The invoice checker of the examples: one task type with an input schema, two artifact types, mail.send. A fresh copy per call. */
export function invoiceCheckerManifest() {
  return JSON.parse(readFileSync(MANIFEST_FILE, 'utf8'));
}

/** Deploys the invoice checker as `slug` and makes an agent key for it; the admin's client and the worker's. */
export async function deployCustomAgent(baseUrl: string, adminKey: string, slug = 'invoice-checker') {
  const admin = apiClient(baseUrl, adminKey);
  const deployed = await admin('POST', '/agents/deploy', { agent_slug: slug, name: 'Invoice checker', manifest: invoiceCheckerManifest() });
  if (deployed.status !== 201) throw new Error(`deploy answered ${deployed.status}: ${JSON.stringify(deployed.body)}`);
  const key = await admin('POST', '/api-keys', { name: `${slug} worker`, role: 'agent', agent: slug });
  if (key.status !== 201) throw new Error(`agent key answered ${key.status}: ${JSON.stringify(key.body)}`);
  return { admin, worker: apiClient(baseUrl, key.body.key), agentKey: key.body.key as string, agentId: deployed.body.agent_id as string, keyId: key.body.key_id as string };
}
