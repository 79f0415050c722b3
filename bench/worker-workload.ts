import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { routes } from '#functions/routes';
import type { ApiClient } from './api-client';
import { workerClient, type WorkerClient } from './worker-client';

/**
 * The custom agent the workers phase runs: the invoice checker of examples/invoice-checker (the
 * manifest README's walk-through deploys), its one task type, an input and a report as its
 * worker would send them.
 */
const MANIFEST_FILE = new URL('../examples/invoice-checker/manifest.json', import.meta.url);
export const TASK_TYPE = 'invoice.check';
export const REPORT_TYPE = 'invoice.check_report';
export const TASK_INPUT = { invoice_number: 'INV-2026-0042', amount: 1280.5, currency: 'EUR', purchase_order: { number: 'PO-7781', amount: 1280.5 }, supplier_email: 'billing@supplier.example' };
export const REPORT_DATA = {
  invoice_number: 'INV-2026-0042',
  verdict: 'matches',
  checks: [
    { check: 'amount_matches_purchase_order', passed: true, detail: 'Invoiced 1280.50 EUR against PO-7781 allowing 1280.50 EUR.' },
    { check: 'currency_declared', passed: true, detail: 'EUR' },
    { check: 'purchase_order_present', passed: true, detail: 'PO-7781' },
  ],
};
/** The lease of every claim: the protocol's default. */
export const LEASE_SECONDS = 60;
/** The longest a claim may wait on the server (docs/workers.md), as the SDK claims by default. */
export const LONGEST_WAIT_SECONDS = 20;

/** The claim route's handler file: what the meter and the invocation observer name it by. */
export const CLAIM_FILE = routes.find((route) => route.path === '/agents/{agent_id}/claims')!.handler;

/** A claim as the API answers it (the fields the bench reads). */
export interface ClaimAnswer {
  task: { task_id: string };
  lease_id: string;
}

/** A deployed custom agent, its agent key, and a worker holding the key. */
export interface BenchAgent {
  slug: string;
  key: string;
  worker: WorkerClient;
}

/** Deploys the invoice checker as `slug` with the admin's key, and makes an agent key for its worker. */
export async function deployBenchAgent(admin: ApiClient, baseUrl: string, slug: string): Promise<BenchAgent> {
  const manifest = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')) as Record<string, unknown>;
  await admin.call('POST', '/agents/deploy', { body: { agent_slug: slug, name: `Bench ${slug}`, manifest } });
  const { key } = await admin.call<{ key: string }>('POST', '/api-keys', { body: { name: `${slug} worker`, role: 'agent', agent: slug } });
  return { slug, key, worker: workerClient(baseUrl, key) };
}

/** The same agent's worker against another runtime over the same table (another port). */
export function workerOn(agent: BenchAgent, baseUrl: string): BenchAgent {
  return { ...agent, worker: workerClient(baseUrl, agent.key) };
}

/** Creates a task of the agent through the API (202, queued); its id and `created_at`. */
export async function createAgentTask(admin: ApiClient, slug: string): Promise<{ task_id: string; created_at: string }> {
  return admin.call('POST', '/tasks', { body: { agent: slug, task_type: TASK_TYPE, input: TASK_INPUT }, expect: 202 });
}

/** One claim, with a new Idempotency-Key as the SDK sends; undefined on 204. */
export async function claim(agent: BenchAgent, waitSeconds: number): Promise<ClaimAnswer | undefined> {
  const answer = await agent.worker.post<ClaimAnswer>(`/agents/${agent.slug}/claims`, { wait_seconds: waitSeconds, lease_seconds: LEASE_SECONDS }, randomUUID(), [200, 204]);
  return answer.status === 200 ? answer.body : undefined;
}

/** The calls of one claimed run, each keyed `<lease_id>:<n>` as the SDK keys them. */
export function leaseCalls(agent: BenchAgent, claimed: ClaimAnswer) {
  let sequence = 0;
  const call = (action: string, body: Record<string, unknown>, expect: number) =>
    agent.worker.post(`/tasks/${claimed.task.task_id}/${action}`, { lease_id: claimed.lease_id, ...body }, `${claimed.lease_id}:${++sequence}`, [expect]);
  return {
    heartbeat: () => call('heartbeat', {}, 200),
    report: () => call('artifacts', { type: REPORT_TYPE, data: REPORT_DATA }, 201),
    complete: () => call('complete', {}, 200),
  };
}
