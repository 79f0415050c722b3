import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, taskEnded, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;

const audit = { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } };
const everyMinute = { type: 'schedule', cron: '* * * * *', timezone: 'Europe/Berlin' };

const ended = (taskId: string) => taskEnded(a, taskId);

describe('triggers end to end', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('triggers');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    await a('POST', '/agents/deploy', { agent_slug: 'sales' });
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('creates a schedule trigger with its next five runs, in the zone, and refuses what cannot run', async () => {
    const created = await a('POST', '/triggers', { name: 'Monday audit', source: { type: 'schedule', cron: '0 8 * * 1', timezone: 'Europe/Berlin' }, task: audit });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Monday audit', enabled: true, source: { type: 'schedule', overlap: 'skip' }, task: { agent: 'ai-readiness-agent', priority: 'normal' }, last_scheduled_for: null });
    expect(created.body.trigger_id).toMatch(/^trg_/);
    expect(created.body.next_runs).toHaveLength(5);
    for (const run of created.body.next_runs) {
      const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(run));
      expect(local).toBe('Mon 08:00');
    }
    expect((await a('GET', `/triggers/${created.body.trigger_id}`)).body.next_runs).toEqual(created.body.next_runs);
    expect((await b('GET', `/triggers/${created.body.trigger_id}`)).status).toBe(404);
    expect((await b('GET', `/triggers/${created.body.trigger_id}`)).body.code).toBe('trigger_not_found');

    const refusals: [unknown, string][] = [
      [{ name: 'x', source: { type: 'schedule', cron: '0 25 * * *', timezone: 'Europe/Berlin' }, task: audit }, 'body.source.cron'],
      [{ name: 'x', source: { type: 'schedule', cron: '0 8 * * 1', timezone: 'Mars/Base' }, task: audit }, 'body.source.timezone'],
      [{ name: 'x', source: everyMinute, task: { ...audit, agent: 'nobody' } }, 'body.task.agent'],
      [{ name: 'x', source: everyMinute, task: { ...audit, task_type: 'ai_readiness.nothing' } }, 'body.task.task_type'],
      [{ name: 'x', source: everyMinute, task: { ...audit, input: { scope: 'everything' } } }, 'body.task.input.scope'],
      [{ name: 'x', source: { type: 'event', artifact_type: 'sales.lead_list' }, task: { agent: 'sales', task_type: 'sales.enrich_leads', input_mapping: { leads: 'artifact/data' } } }, 'body.task.input_mapping.leads'],
      [{ name: 'x', source: { type: 'event', artifact_type: 'nothing.ever' }, task: audit }, 'body.source.artifact_type'],
      [{ name: 'x', source: everyMinute, task: { ...audit, input_mapping: { scope: '/x' } } }, 'body.task.input_mapping'],
      [{ name: 'x', source: { ...everyMinute, end_at: '2020-01-01T00:00:00Z' }, task: audit }, 'body.source.end_at'],
      [{ name: 'x', source: { ...everyMinute, start_at: 'soon' }, task: audit }, 'body.source.start_at'],
    ];
    for (const [body, path] of refusals) {
      const answer = await a('POST', '/triggers', body);
      expect(answer.status, path).toBe(400);
      expect(answer.body.errors.map((error: { path: string }) => error.path), path).toContain(path);
    }
    const undeployed = await b('POST', '/triggers', { name: 'x', source: everyMinute, task: audit });
    expect(undeployed.status).toBe(400);
    expect(undeployed.body.errors[0]).toMatchObject({ path: 'body.task.agent', message: expect.stringContaining('not deployed') });
    expect((await a('GET', '/triggers?type=schedule')).body.triggers.every((trigger: any) => trigger.source.type === 'schedule')).toBe(true);
  });

  it('runs a schedule every minute, one task per scheduled time, each visible in the runs log', async () => {
    const trigger = (await a('POST', '/triggers', { name: 'Every minute', source: { ...everyMinute, overlap: 'allow' }, task: audit })).body;
    const runs = await eventually(async () => {
      const { body } = await a('GET', `/triggers/${trigger.trigger_id}/runs`);
      return body.runs.length >= 1 ? body.runs : undefined;
    }, 75_000, 500);
    expect(runs[0]).toMatchObject({ trigger_id: trigger.trigger_id, outcome: 'task_created' });
    expect(new Date(runs[0].scheduled_for).getUTCSeconds()).toBe(0);
    const task = await ended(runs[0].task_id);
    expect(task).toMatchObject({ status: 'complete', trigger: { type: 'schedule', trigger_id: trigger.trigger_id, run_id: runs[0].run_id, scheduled_for: runs[0].scheduled_for } });
    expect((await a('GET', `/tasks?trigger_id=${trigger.trigger_id}`)).body.tasks.map((listed: any) => listed.task_id)).toContain(task.task_id);
    const current = (await a('GET', `/triggers/${trigger.trigger_id}`)).body;
    expect(current.last_scheduled_for).toBe(runs[0].scheduled_for);
    expect(current.last_task_id).toBe(task.task_id);

    // Paused: no schedule, no next runs; a manual fire still runs once.
    const paused = await a('PATCH', `/triggers/${trigger.trigger_id}`, { enabled: false });
    expect(paused.body).toMatchObject({ enabled: false, next_runs: [] });
    const fired = await a('POST', `/triggers/${trigger.trigger_id}/fire`);
    expect(fired.status).toBe(200);
    expect(fired.body).toMatchObject({ outcome: 'task_created', trigger_id: trigger.trigger_id });
    expect(fired.body.scheduled_for).toBeUndefined();
    expect((await ended(fired.body.task_id)).trigger).toMatchObject({ type: 'schedule', run_id: fired.body.run_id, manual: true });

    expect((await a('DELETE', `/triggers/${trigger.trigger_id}`)).status).toBe(204);
    expect((await a('GET', `/triggers/${trigger.trigger_id}`)).status).toBe(404);
    expect((await a('GET', `/triggers/${trigger.trigger_id}/runs`)).status).toBe(404);
  }, 120_000);

  it('skips a run while the last task of the trigger still waits for a person (overlap: skip)', async () => {
    const draft = { agent: 'sales', task_type: 'sales.draft_email', input: { lead: { name: 'Ada', email: 'ada@prospect.example', company: 'Prospect Ltd' }, product: { name: 'Gatehouse', value_proposition: 'Humans decide.' } } };
    const trigger = (await a('POST', '/triggers', { name: 'Drafts', source: { type: 'schedule', cron: '0 8 * * 1', timezone: 'UTC' }, task: draft })).body;
    const first = (await a('POST', `/triggers/${trigger.trigger_id}/fire`)).body;
    expect(first.outcome).toBe('task_created');
    await eventually(async () => ((await a('GET', `/tasks/${first.task_id}`)).body.status === 'awaiting_approval' ? true : undefined), 30_000);
    const second = (await a('POST', `/triggers/${trigger.trigger_id}/fire`)).body;
    expect(second).toMatchObject({ outcome: 'skipped_overlap', reason: expect.stringContaining(first.task_id) });
    expect(second.task_id).toBeUndefined();
    const log = (await a('GET', `/triggers/${trigger.trigger_id}/runs`)).body.runs;
    expect(log.map((run: any) => run.outcome)).toEqual(['skipped_overlap', 'task_created']);
  });

  it('chains find_leads → enrich_leads through an event trigger with a JSON Pointer mapping, once per artifact', async () => {
    const trigger = await a('POST', '/triggers', {
      name: 'Enrich new leads',
      source: { type: 'event', artifact_type: 'sales.lead_list', agent: 'sales' },
      task: { agent: 'sales', task_type: 'sales.enrich_leads', input_mapping: { leads: '/artifact/data/leads' } },
    });
    expect(trigger.status).toBe(201);
    expect(trigger.body.next_runs).toBeUndefined();
    const source = (await a('POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads', input: { industries: ['fintech'], limit: 3 } })).body;
    const found = await ended(source.task_id);
    const leadList = found.artifacts.find((artifact: any) => artifact.type === 'sales.lead_list');

    const run = await eventually(async () => (await a('GET', `/triggers/${trigger.body.trigger_id}/runs`)).body.runs[0], 30_000);
    expect(run).toMatchObject({ outcome: 'task_created', source_artifact_id: leadList.artifact_id, source_task_id: source.task_id });
    const enriched = await ended(run.task_id);
    expect(enriched).toMatchObject({ status: 'complete', task_type: 'sales.enrich_leads', trigger: { type: 'event', trigger_id: trigger.body.trigger_id, source_task_id: source.task_id, source_artifact_id: leadList.artifact_id, depth: 1 } });
    const leads = (await a('GET', `/artifacts/${leadList.artifact_id}`)).body.data.leads;
    expect(enriched.input.leads.map((lead: any) => lead.domain)).toEqual(leads.map((lead: any) => lead.domain));
    // One run per artifact: the enriched list emits another type, nothing loops.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await a('GET', `/triggers/${trigger.body.trigger_id}/runs`)).body.runs).toHaveLength(1);
    expect((await a('GET', `/tasks?trigger_id=${trigger.body.trigger_id}`)).body.tasks.map((task: any) => task.task_id)).toEqual([run.task_id]);
  });

  it('cuts a chain at depth 8', async () => {
    // A trigger that answers every audit report with another audit: a chain only depth stops.
    const loop = (await a('POST', '/triggers', { name: 'Loop', source: { type: 'event', artifact_type: 'ai_readiness.gap_summary' }, task: audit })).body;
    const first = (await a('POST', '/tasks', audit)).body;
    await ended(first.task_id);
    const runs = await eventually(async () => {
      const { body } = await a('GET', `/triggers/${loop.trigger_id}/runs?limit=20`);
      return body.runs.some((run: any) => run.outcome === 'skipped_depth') ? body.runs : undefined;
    }, 60_000, 250);
    expect(runs.filter((run: any) => run.outcome === 'task_created')).toHaveLength(8);
    expect(runs[0]).toMatchObject({ outcome: 'skipped_depth', reason: expect.stringContaining('8') });
    const deepest = (await a('GET', `/tasks/${runs[1].task_id}`)).body;
    expect(deepest.trigger.depth).toBe(8);
    await a('PATCH', `/triggers/${loop.trigger_id}`, { enabled: false });
  }, 90_000);
});
