import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, taskEnded, type TestRuntime } from '../support/local-runtime';

/**
 * Issue 25, finding 7, from the request that confirmed it: two event triggers on
 * `ai_readiness.audit_report` turned one POST /tasks into 510 tasks in 30 s (each audit's report
 * started two more audits; only the depth cap of 8 stopped it). The runtime's real event-trigger
 * consumer (the table stream's reaction) now spends a per-root budget with each triggered task:
 * 6 here through GATEHOUSE_EVENT_TRIGGER_FAN_OUT (50 by default), so the chain runs to depth 2
 * (2 + 4 tasks) and every run past it is `skipped_budget`.
 */
let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;

const BUDGET = 6;
const audit = { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } };

async function runsOf(triggerId: string): Promise<{ outcome: string; task_id?: string; reason?: string }[]> {
  return (await a('GET', `/triggers/${triggerId}/runs?limit=100`)).body.runs;
}

describe('the fan-out budget of event-trigger chains, on the local runtime', () => {
  beforeAll(async () => {
    process.env.GATEHOUSE_EVENT_TRIGGER_FAN_OUT = String(BUDGET);
    runtime = await startTestRuntime('fan-out');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('stops a doubling chain at exactly the budget, logging the runs past it as skipped_budget', async () => {
    const triggers: string[] = [];
    for (const name of ['Re-audit', 'Second opinion']) {
      const created = await a('POST', '/triggers', { name, source: { type: 'event', artifact_type: 'ai_readiness.audit_report' }, task: audit });
      expect(created.status).toBe(201);
      triggers.push(created.body.trigger_id as string);
    }

    const root = (await a('POST', '/tasks', audit)).body;
    await taskEnded(a, root.task_id);

    // Depth 1 makes 2 tasks, depth 2 makes 4 (6 in all); each of those 4 reports asks both triggers for more: 8 skipped.
    const runs = await eventually(async () => {
      const all = (await Promise.all(triggers.map(runsOf))).flat();
      return all.filter((run) => run.outcome === 'skipped_budget').length >= 8 ? all : undefined;
    }, 90_000, 500);
    const created = runs.filter((run) => run.outcome === 'task_created');
    expect(created).toHaveLength(BUDGET);
    expect(runs.filter((run) => run.outcome === 'skipped_budget')).toHaveLength(8);
    expect(runs.every((run) => run.outcome === 'task_created' || run.outcome === 'skipped_budget')).toBe(true);
    expect(runs.find((run) => run.outcome === 'skipped_budget')?.reason).toContain(root.task_id);

    // Every triggered task carries the root it spent, down the chain, beside its depth.
    for (const run of created) {
      const task = await taskEnded(a, run.task_id!);
      expect(task.trigger).toMatchObject({ type: 'event', root_task_id: root.task_id, depth: expect.any(Number) });
    }
    const triggered = (await Promise.all(triggers.map(async (id) => (await a('GET', `/tasks?trigger_id=${id}&limit=100`)).body.tasks))).flat();
    expect(triggered).toHaveLength(BUDGET);
  });
});
