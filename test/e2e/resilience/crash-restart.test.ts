import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, eventually } from '../../support/local-runtime';
import { removeDataDir, startRuntimeProcess, type RuntimeProcess } from '../../support/runtime-process';

const TASKS = 200;
const key = 'gh_test_crash_restart_0123456789';
/** Artifact types each task type emits, once each. */
const ARTIFACTS: Record<string, string[]> = {
  'ai_readiness.full_audit': ['ai_readiness.audit_report', 'ai_readiness.gap_summary'],
  'questionnaire.respond': ['ai_readiness.questionnaire_response'],
};
const requests = [
  { task_type: 'ai_readiness.full_audit', input: { scope: 'full' } },
  { task_type: 'questionnaire.respond', input: { questions: [{ id: 'q1', text: 'Do you keep an inventory of your AI systems?' }, { id: 'q2', text: 'Who approves new AI use cases?' }] } },
];
const PRIORITIES = ['high', 'normal', 'low'];
/**
 * The restart re-sends everything at once; a worker whose write then fails (DynamoDB Local slow
 * under load) leaves its message invisible for the queue's 12-minute visibility timeout, and the
 * sweeper sends it again sooner. Here it runs every 5 s and takes 30 s of silence for a dead worker.
 */
const SWEEPER_ENV = { GATEHOUSE_RECURRING_JOB_INTERVAL_MS: '5000', SWEEPER_STALLED_TASK_SECONDS: '30', SWEEPER_REDISPATCH_AFTER_SECONDS: '30' };

interface EventView {
  event_id: string;
  type: string;
  task_id?: string;
  data: Record<string, unknown>;
}

/** Runs `work` over `items` with at most `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let offset = 0; offset < items.length; offset += width) results.push(...(await Promise.all(items.slice(offset, offset + width).map(work))));
  return results;
}

describe('a runtime killed (SIGKILL) with 200 tasks in flight, then started again on the same data', () => {
  const processes: RuntimeProcess[] = [];

  afterAll(async () => {
    for (const runtime of processes.reverse()) await runtime.stop();
    if (processes[0]) removeDataDir(processes[0].dataDir);
  });

  it('ends every task, with each artifact once and each event once', async () => {
    const first = await startRuntimeProcess({ apiKeys: `crash:${key}`, env: SWEEPER_ENV });
    processes.push(first);
    const api = apiClient(first.baseUrl, key);
    await api('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });

    const created = await inBatches([...Array(TASKS).keys()], 10, async (index) => {
      const { status, body } = await api('POST', '/tasks', { agent: 'ai-readiness', priority: PRIORITIES[index % 3], ...requests[index % 2] });
      expect(status).toBe(202);
      return { taskId: body.task_id as string, taskType: requests[index % 2].task_type };
    });

    // Dies at once, mid-work: workers between writes, tasks queued, events not yet fanned out.
    await first.crash();
    const second = await startRuntimeProcess({ apiKeys: `crash:${key}`, dataDir: first.dataDir, port: first.port, env: SWEEPER_ENV });
    processes.push(second);

    let statuses: Record<string, number> = {};
    const tasks = await eventually(
      async () => {
        // A read that times out while the restarted runtime catches up is asked again at the next
        // poll: this test is about every task ending exactly once, not how fast reads answer meanwhile.
        const all = await inBatches(created, 20, async ({ taskId }) => (await api('GET', `/tasks/${taskId}`)).body).catch((error: unknown) => {
          if (error instanceof Error && error.name === 'TimeoutError') return undefined;
          throw error;
        });
        if (!all) return undefined;
        statuses = {};
        for (const task of all) statuses[task.status] = (statuses[task.status] ?? 0) + 1;
        return all.every((task) => ['complete', 'failed', 'cancelled'].includes(task.status)) ? all : undefined;
      },
      360_000,
      2_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; tasks by status: ${JSON.stringify(statuses)}\n--- runtime output ---\n${second.output.slice(-30).join('\n')}`);
    });

    // The crash did interrupt work: the restart found tasks still waiting or running.
    expect(second.output.join('\n')).toMatch(/Resumed [1-9]\d* task\(s\)/);
    for (const [index, task] of tasks.entries()) {
      const { taskId, taskType } = created[index];
      expect(task, taskId).toMatchObject({ task_id: taskId, status: 'complete' });
      // Each artifact exactly once: one per type, and the stored artifacts are exactly those listed.
      const types = task.artifacts.map((artifact: { type: string }) => artifact.type).sort();
      expect(types, taskId).toEqual(ARTIFACTS[taskType]);
      const { body: stored } = await api('GET', `/tasks/${taskId}/artifacts`);
      expect(stored.artifacts.map((artifact: { artifact_id: string }) => artifact.artifact_id).sort(), taskId).toEqual(task.artifacts.map((artifact: { artifact_id: string }) => artifact.artifact_id).sort());

      // Each event exactly once: no repeated id, and no repeated logical event.
      const { body } = await api('GET', `/events?task_id=${taskId}&limit=100`);
      const events: EventView[] = body.events;
      expect(body.next_cursor ?? null, taskId).toBeNull();
      const ids = events.map((event) => event.event_id);
      expect(new Set(ids).size, taskId).toBe(ids.length);
      const once = (type: string) => events.filter((event) => event.type === type).length;
      expect([once('task.created'), once('task.started'), once('task.complete'), once('task.failed')], taskId).toEqual([1, 1, 1, 0]);
      const emitted = events.filter((event) => event.type === 'artifact.emitted').map((event) => event.data.artifact_id).sort();
      expect(emitted, taskId).toEqual(task.artifacts.map((artifact: { artifact_id: string }) => artifact.artifact_id).sort());
      const progress = events.filter((event) => event.type === 'task.progress').map((event) => JSON.stringify(event.data));
      expect(new Set(progress).size, taskId).toBe(progress.length);
    }

    // The tenant-wide log, across its sharded partitions: no event id twice.
    const all: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const { body }: { body: { events: EventView[]; next_cursor: string | null } } = await api('GET', `/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      all.push(...body.events.map((event: EventView) => event.event_id));
      cursor = body.next_cursor;
      if (!cursor) break;
    }
    expect(cursor).toBeNull();
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(TASKS * 4);
  }, 900_000);
});
