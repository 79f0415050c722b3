import { randomBytes } from 'node:crypto';
import type { TestSite } from '../../support/test-site-server';
import { callApi, ensureAgent } from './seed';

/** What the screenshots show, made through the API the way a script would. */
export interface Showcase {
  completedTaskId: string;
  scanId: string;
}

const POLL_MS = 500;

/** Polls GET `path` with tenant A's key until `done` accepts the answer, or fails after `timeoutMs`. */
async function waitFor<T>(baseUrl: string, path: string, done: (body: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await callApi<T>(baseUrl, 'tenant_a', 'GET', path);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`GET ${path} did not reach the expected state within ${timeoutMs} ms: ${JSON.stringify(body).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Tenant A with something on every page: two agents, audits (one waited for until it completed
 * with its report), an email draft waiting for approval, a finished scan of the test site, a
 * webhook and an API key.
 */
export async function seedShowcase(baseUrl: string, site: TestSite): Promise<Showcase> {
  const audit = await ensureAgent(baseUrl, 'tenant_a', 'ai-readiness', 'AI readiness');
  const sales = await ensureAgent(baseUrl, 'tenant_a', 'sales', 'Sales');
  const startAudit = () => callApi<{ task_id: string }>(baseUrl, 'tenant_a', 'POST', '/tasks', { agent_id: audit.agent_id, task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
  const completed = await startAudit();
  await waitFor<{ status: string }>(baseUrl, `/tasks/${completed.task_id}`, (task) => task.status === 'complete', 60_000);
  await startAudit();
  const lead = { lead: { domain: 'xylomarket.example' }, product: { name: 'Gatehouse', value_proposition: 'Gatehouse keeps a human in the loop for every risky agent action.' } };
  const draft = await callApi<{ task_id: string }>(baseUrl, 'tenant_a', 'POST', '/tasks', { agent_id: sales.agent_id, task_type: 'sales.draft_email', input: lead });
  await waitFor<{ status: string }>(baseUrl, `/tasks/${draft.task_id}`, (task) => task.status === 'awaiting_approval', 60_000);

  const project = await callApi<{ project_id: string }>(baseUrl, 'tenant_a', 'POST', '/projects', { name: 'Marketing site', target: site.url, crawl: { max_pages: 10, timeout_seconds: 2 } });
  const scan = await callApi<{ scan_id: string }>(baseUrl, 'tenant_a', 'POST', `/projects/${project.project_id}/scans`, { metadata: { branch: 'main', git_sha: '4f1c2e9' } });
  await waitFor<{ status: string }>(baseUrl, `/scans/${scan.scan_id}`, (body) => ['completed', 'failed'].includes(body.status), 180_000);

  await callApi(baseUrl, 'tenant_a', 'POST', '/webhooks', { url: 'http://127.0.0.1:9/approvals-hook', events: ['approval.requested', 'approval.resolved'], secret: randomBytes(24).toString('base64url') });
  await callApi(baseUrl, 'tenant_a', 'POST', '/api-keys', { name: 'CI pipeline', role: 'operator' });
  return { completedTaskId: completed.task_id, scanId: scan.scan_id };
}
