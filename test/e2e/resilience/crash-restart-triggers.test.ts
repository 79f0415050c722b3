import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, eventually } from '../../support/local-runtime';
import { removeDataDir, startRuntimeProcess, type RuntimeProcess } from '../../support/runtime-process';

const key = 'gh_test_crash_triggers_0123456789';
const LEAD_SEARCHES = 12;
const audit = { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } };
const SWEEPER_ENV = { GATEHOUSE_RECURRING_JOB_INTERVAL_MS: '5000', SWEEPER_STALLED_TASK_SECONDS: '30', SWEEPER_REDISPATCH_AFTER_SECONDS: '30' };

describe('a runtime killed (SIGKILL) while a schedule fires and event triggers run, then started again', () => {
  const processes: RuntimeProcess[] = [];

  afterAll(async () => {
    for (const runtime of processes.reverse()) await runtime.stop();
    if (processes[0]) removeDataDir(processes[0].dataDir);
  });

  it('makes exactly one task for the scheduled time and for each artifact: never none, never two', async () => {
    const first = await startRuntimeProcess({ apiKeys: `crash:${key}`, env: SWEEPER_ENV });
    processes.push(first);
    const api = apiClient(first.baseUrl, key);
    await api('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    await api('POST', '/agents/deploy', { agent_slug: 'sales' });
    const minutely = (await api('POST', '/triggers', { name: 'Every minute', source: { type: 'schedule', cron: '* * * * *', timezone: 'UTC', overlap: 'allow' }, task: audit })).body;
    const enrich = (await api('POST', '/triggers', { name: 'Enrich', source: { type: 'event', artifact_type: 'sales.lead_list' }, task: { agent: 'sales', task_type: 'sales.enrich_leads', input_mapping: { leads: '/artifact/data/leads' } } })).body;
    const scheduledFor = minutely.next_runs[0] as string;

    // Lead searches finish around the scheduled time, and the runtime dies just after it: the fire
    // and the event triggers are under way, done, or not begun, whichever the moment gives.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(scheduledFor) - Date.now() - 1_500)));
    const searches: string[] = [];
    for (let index = 0; index < LEAD_SEARCHES; index++) searches.push((await api('POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads', input: { industries: ['fintech'], limit: 2 } })).body.task_id);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(scheduledFor) + 300 - Date.now())));
    await first.crash();

    const second = await startRuntimeProcess({ apiKeys: `crash:${key}`, dataDir: first.dataDir, port: first.port, env: SWEEPER_ENV });
    processes.push(second);
    const failure = (what: string) => (error: unknown) => {
      throw new Error(`${what}: ${String(error)}\n--- runtime output ---\n${second.output.slice(-30).join('\n')}`);
    };

    const run = await eventually(async () => {
      const { body } = await api('GET', `/triggers/${minutely.trigger_id}/runs?limit=100`);
      return body.runs?.find((candidate: any) => candidate.scheduled_for === scheduledFor);
    }, 90_000, 1_000).catch(failure('the scheduled time got no run'));
    expect(run.outcome).toBe('task_created');
    const scheduledTasks = (await api('GET', `/tasks?trigger_id=${minutely.trigger_id}&limit=100`)).body.tasks.filter((task: any) => task.trigger.scheduled_for === scheduledFor);
    expect(scheduledTasks.map((task: any) => task.task_id)).toEqual([run.task_id]);

    // Every search ends with one lead list, and each lead list starts exactly one enrichment.
    const lists = await eventually(async () => {
      const tasks = await Promise.all(searches.map(async (id) => (await api('GET', `/tasks/${id}`)).body));
      return tasks.every((task) => task.status === 'complete') ? tasks.map((task) => task.artifacts[0].artifact_id as string) : undefined;
    }, 120_000, 1_000).catch(failure('the searches did not end'));
    const enrichments = await eventually(async () => {
      const { body } = await api('GET', `/tasks?trigger_id=${enrich.trigger_id}&limit=100`);
      return body.tasks.length >= LEAD_SEARCHES ? body.tasks : undefined;
    }, 120_000, 1_000).catch(failure('not every lead list started its enrichment'));
    // Settle: a duplicate would show up now if the claims let one through.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const finalEnrichments = (await api('GET', `/tasks?trigger_id=${enrich.trigger_id}&limit=100`)).body.tasks;
    expect(finalEnrichments).toHaveLength(enrichments.length);
    expect(finalEnrichments.map((task: any) => task.trigger.source_artifact_id).sort()).toEqual([...lists].sort());
    const runs = (await api('GET', `/triggers/${enrich.trigger_id}/runs?limit=100`)).body.runs;
    expect(runs.filter((entry: any) => entry.outcome === 'task_created')).toHaveLength(LEAD_SEARCHES);
  }, 420_000);
});
