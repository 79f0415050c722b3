import { ensureDashboardBuiltSync } from '#lib/bundling/dashboard-build';
import { generateApiKey } from '#shared/domain/api-key';
import { startRuntime } from '#lib/local/runtime';
import { signIn as signInOverHttp } from '../../test/support/sign-in';
import { launchChromium } from '../../test/browser/support/chromium';
import { startBenchEngines } from '../bench-runtime';
import type { BenchConfig } from '../config';
import { measureAuthorizerLatency } from '../dashboard/authorizer-latency';
import { measureListPages, measureTaskPageEvent, signInPage } from '../dashboard/browser-timings';
import { measureInitialJavaScript } from '../dashboard/initial-javascript';
import type { DashboardReport } from '../results';

const PERSON = { email: 'bench@example.com', password: 'bench-dashboard-password' };

/**
 * The dashboard as a person meets it, on loopback: what the first visit downloads, how soon list
 * pages paint, how soon an open task page shows a new event, and what a person's access token
 * adds to a request over an API key. No task workers: the tasks stay queued until cancelled.
 */
export async function run(config: BenchConfig): Promise<DashboardReport> {
  const initialJavaScript = measureInitialJavaScript(ensureDashboardBuiltSync());
  const engines = await startBenchEngines();
  const key = generateApiKey();
  // Every request pays the authorizer, so the figures compare the two checks themselves.
  const runtime = await startRuntime({ port: 0, dataDir: '', inMemory: true, engines, name: 'bench-dashboard', apiKeys: [{ tenantId: 'bench', key }], users: [{ ...PERSON, tenantId: 'bench', role: 'admin' }], workers: false, authorizerCacheSeconds: 0, smtpPort: 0, log: () => undefined });
  const origin = new URL(runtime.baseUrl).origin;
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${runtime.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const browser = await launchChromium();
  try {
    const accessToken = await signInOverHttp(runtime.baseUrl, PERSON.email, PERSON.password);
    const authorizer = await measureAuthorizerLatency(runtime.baseUrl, key, accessToken, config.quick ? 100 : 500);

    await api('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    const taskCount = config.quick ? 5 : 20;
    const tasks = [];
    for (let index = 0; index < taskCount; index++) {
      const task = await api('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
      const taskId = String(task.task_id);
      tasks.push({ taskId, produce: async () => (await api('POST', `/tasks/${taskId}/cancel`), Date.now()) });
    }
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await signInPage(page, origin, PERSON);
    const listPages = await measureListPages(page, origin, config.quick ? 2 : 5);
    const taskPageEvent = await measureTaskPageEvent(browser, page, origin, tasks);
    return { initialJavaScript, authorizer, listPages, taskPageEvent, streamPollMs: Number(process.env.STREAM_POLL_MILLISECONDS ?? 500) };
  } finally {
    await browser.close();
    await runtime.stop();
    await engines.stop();
  }
}
