import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { startTestSite, type TestSite } from '../support/test-site-server';
import { startReceiver } from '../support/webhook-receiver';

let runtime: TestRuntime;
let site: TestSite;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
const month = new Date().toISOString().slice(0, 7);
const tasks: any[] = [];
let webhookId: string;

const draftInput = {
  lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' },
  product: { name: 'Gatehouse', value_proposition: 'Keeps a human in the loop.' },
  tone: 'concise',
};

async function finished(taskId: string) {
  return eventually(async () => {
    const { body } = await a('GET', `/tasks/${taskId}`);
    return ['complete', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, 30_000);
}

async function run(agent: string, taskType: string, input: unknown) {
  const { status, body } = await a('POST', '/tasks', { agent, task_type: taskType, input });
  expect(status).toBe(202);
  return body.task_id as string;
}

const seconds = (task: any) => (task.started_at ? (Date.parse(task.completed_at) - Date.parse(task.started_at)) / 1000 : 0);

describe('usage end to end: counted as the work happens', () => {
  beforeAll(async () => {
    process.env.WEBHOOK_RETRY_SCALE_PERCENT = '0';
    site = await startTestSite();
    receiver = await startReceiver(() => 204);
    runtime = await startTestRuntime('usage');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
    await a('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' });
    webhookId = (await a('POST', '/webhooks', { url: receiver.url, events: ['task.complete'], secret: 'whsec-test-secret-0123456789' })).body.webhook_id;

    const ids = [
      await run('ai-readiness', 'ai_readiness.full_audit', { scope: 'full' }),
      await run('ai-readiness', 'ai_readiness.full_audit', { scope: 'full' }),
      await run('sales', 'sales.find_leads', { industries: ['fintech'], limit: 5 }),
      // Breaks the manifest schema: fails with malformed_input.
      await run('sales', 'sales.find_leads', { limit: 'many' }),
    ];
    const draft = await run('sales', 'sales.draft_email', draftInput);
    await eventually(async () => ((await a('GET', `/tasks/${draft}`)).body.status === 'awaiting_approval' ? true : undefined), 30_000);
    const { approvals } = (await a('GET', `/approvals?task_id=${draft}`)).body;
    expect((await a('POST', `/approvals/${approvals[0].approval_id}/resolve`, { decision: 'approved' })).status).toBe(200);
    for (const id of [...ids, draft]) tasks.push(await finished(id));

    const project = await a('POST', '/projects', { name: 'Test site', target: site.url, crawl: { max_pages: 2, timeout_seconds: 2 } });
    const scan = await a('POST', `/projects/${project.body.project_id}/scans`, { detectors: ['security'] });
    expect(scan.status).toBe(201);
    await eventually(async () => (['completed', 'failed'].includes((await a('GET', `/scans/${scan.body.scan_id}`)).body.status) ? true : undefined), 90_000, 250);
    // Every completed task's event is delivered once to the receiver.
    await eventually(async () => {
      const { deliveries } = (await a('GET', `/webhooks/${webhookId}/deliveries`)).body;
      return deliveries.length === 4 && deliveries.every((delivery: any) => delivery.status === 'succeeded') ? true : undefined;
    }, 30_000);
  }, 240_000);

  afterAll(async () => {
    await runtime?.stop();
    await receiver?.close();
    await site?.close();
  });

  it('answers exactly what was done, by agent and task type', async () => {
    expect(tasks.map((task) => task.status)).toEqual(['complete', 'complete', 'complete', 'failed', 'complete']);
    const { deliveries } = (await a('GET', `/webhooks/${webhookId}/deliveries`)).body;
    const sum = (list: any[]) => list.reduce((total, task) => total + seconds(task), 0);
    const byType = (agent: string, type: string) => tasks.filter((task) => task.agent === agent && task.task_type === type);
    const agentCounts = (list: any[]) => ({ tasks_created: list.length, tasks_completed: list.filter((task) => task.status === 'complete').length, task_seconds: expect.closeTo(sum(list), 3) });

    const { status, body } = await a('GET', `/usage?month=${month}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      month,
      tasks_created: 5,
      tasks_completed: 4,
      tasks_failed: 1,
      tasks_cancelled: 0,
      task_seconds: expect.closeTo(sum(tasks), 3),
      scans: 1,
      pages_scanned: 2,
      approvals: 1,
      tool_calls: 1,
      webhook_deliveries: deliveries.reduce((total: number, delivery: any) => total + delivery.attempt_count, 0),
      by_agent: {
        'ai-readiness-agent': { ...agentCounts(byType('ai-readiness-agent', 'ai_readiness.full_audit')), by_task_type: { 'ai_readiness.full_audit': agentCounts(byType('ai-readiness-agent', 'ai_readiness.full_audit')) } },
        sales: {
          ...agentCounts(tasks.filter((task) => task.agent === 'sales')),
          by_task_type: { 'sales.find_leads': agentCounts(byType('sales', 'sales.find_leads')), 'sales.draft_email': agentCounts(byType('sales', 'sales.draft_email')) },
        },
      },
    });
    // Four deliveries, each counted per attempt: a receiver slow under load may have needed a retry.
    expect(body.webhook_deliveries).toBeGreaterThanOrEqual(4);
    expect((await a('GET', '/usage')).body).toEqual(body);
  });

  it('gives the month as CSV, one row per agent and task type, summing to the JSON', async () => {
    const { body: usage } = await a('GET', `/usage?month=${month}`);
    for (const [path, headers] of [[`/usage?month=${month}`, { Accept: 'text/csv' }], [`/usage?month=${month}&format=csv`, {}]] as const) {
      const { status, headers: answered, body } = await a('GET', path, undefined, headers);
      expect(status).toBe(200);
      expect(answered.get('content-type')).toContain('text/csv');
      const rows = parse(body, { columns: true }) as Record<string, string>[];
      expect(rows.map((row) => `${row.agent} ${row.task_type}`)).toEqual(['ai-readiness-agent ai_readiness.full_audit', 'sales sales.draft_email', 'sales sales.find_leads']);
      const total = (column: string) => rows.reduce((sum, row) => sum + Number(row[column]), 0);
      expect(total('tasks_created')).toBe(usage.tasks_created);
      expect(total('tasks_completed')).toBe(usage.tasks_completed);
      expect(total('task_seconds')).toBeCloseTo(usage.task_seconds, 3);
    }
  });

  it('refuses a month that is not YYYY-MM with 400, and counts nothing for another tenant or month', async () => {
    for (const bad of ['2031-13', '2031-1', 'July', '2031-07-01']) {
      const answer = await a('GET', `/usage?month=${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body).toMatchObject({ code: 'validation_error', errors: [expect.objectContaining({ path: 'query.month' })] });
    }
    expect((await a('GET', '/usage?format=xml')).status).toBe(400);
    expect((await b('GET', `/usage?month=${month}`)).body).toMatchObject({ tasks_created: 0, scans: 0, webhook_deliveries: 0, by_agent: {} });
    expect((await a('GET', '/usage?month=2000-01')).body).toMatchObject({ month: '2000-01', tasks_created: 0, task_seconds: 0, by_agent: {} });
  });
});
