import { beforeAll, describe, expect, it } from 'vitest';
import { artifactRepository } from '#shared/adapters/dynamodb/artifact-repository';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { findAgentBySlug } from '#shared/agents/catalog';
import { systemClock } from '#shared/domain/clock';
import { newId } from '#shared/domain/ids';
import type { AgentContext } from '#shared/agents/agent';
import type { TaskExecutionStore } from '#shared/domain/ports';
import { AgentRunner, type AgentRunnerDependencies } from '#shared/runtime/agent-runner';
import { approvalGate } from '#shared/services/approval-gate';
import { retentionStamps } from '#shared/services/retention-stamps';
import { taskEvents } from '../support/event-reader';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { storedTask } from '../support/task-fixtures';

/** A runner on DynamoDB Local with the real catalog and clock, but for what a test replaces. */
function runnerWith(overrides: Partial<AgentRunnerDependencies> = {}): AgentRunner {
  return new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps, ...overrides });
}

const runner = runnerWith();

/** Kills the worker after 0, 1, 2, ... successful writes, redelivering each time, until a run survives; the deaths. */
async function runUntilItSurvives(tenant: string, taskId: string, when: 'before' | 'after' = 'before'): Promise<number> {
  let deaths = 0;
  for (let budget = 0; budget < 20; budget++) {
    const outcome = await runnerWith({ store: dyingStore(budget, when) }).run(tenant, taskId).catch(() => 'died');
    if (outcome !== 'died') break;
    deaths++;
  }
  return deaths;
}

/**
 * A store whose writes start failing after `budget` successful step writes: a worker that dies.
 * `when: 'after'` lets the failing write commit first, as when a worker dies before it hears back.
 */
function dyingStore(budget: number, when: 'before' | 'after' = 'before'): TaskExecutionStore {
  let left = budget;
  const died = () => Object.assign(new Error('worker died'), { name: 'TimeoutError' });
  const spend = async <T>(write: () => Promise<T>): Promise<T> => {
    const last = left-- <= 0;
    if (last && when === 'before') throw died();
    const result = await write();
    if (left < 0 && when === 'after') throw died();
    return result;
  };
  return {
    load: (tenantId, taskId) => taskRepository.load(tenantId, taskId),
    start: (task, event) => taskRepository.start(task, event),
    recordProgress: (task, step, events) => spend(() => taskRepository.recordProgress(task, step, events)),
    emitArtifact: (task, step, artifact, event, progress) => spend(() => taskRepository.emitArtifact(task, step, artifact, event, progress)),
    complete: (task, event, emitted) => spend(() => taskRepository.complete(task, event, emitted)),
    fail: (task, error, event, emitted) => taskRepository.fail(task, error, event, emitted),
    recordToolCall: (task, step, record, event, progress) => spend(() => taskRepository.recordToolCall(task, step, record, event, progress)),
    toolCall: (task, step) => taskRepository.toolCall(task, step),
    discardArtifacts: (task) => taskRepository.discardArtifacts(task),
  };
}

describe('agent runner on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('runner');
  });

  it('runs a task to complete, with its artifacts and every event in order', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant);

    await expect(runner.run(tenant, task.task_id)).resolves.toBe('complete');

    const done = (await taskRepository.load(tenant, task.task_id))!;
    expect(done.status).toBe('complete');
    expect(done.completed_at).toBeDefined();
    const types = Object.values(done.artifacts).map((artifact) => artifact.type).sort();
    expect(types).toEqual(['ai_readiness.audit_report', 'ai_readiness.gap_summary']);
    const events = (await taskEvents(tenant, task.task_id)).map((event) => event.type);
    expect(events[0]).toBe('task.created');
    expect(events[1]).toBe('task.started');
    expect(events.filter((type) => type === 'artifact.emitted')).toHaveLength(2);
    expect(events.at(-1)).toBe('task.complete');
    // The full audit's progress calls all come before its first artifact: they ride with it,
    // coalesced into the latest call's event.
    const progress = (await taskEvents(tenant, task.task_id)).filter((event) => event.type === 'task.progress');
    expect(progress.map((event) => event.data)).toEqual([{ task_id: task.task_id, message: 'Writing report', progress: 0.95 }]);
    expect(events.indexOf('task.progress')).toBe(events.indexOf('artifact.emitted') - 1);
    // The report (several KB of JSON) is stored gzipped and read back whole.
    const report = Object.values(done.artifacts).find((artifact) => artifact.type === 'ai_readiness.audit_report')!;
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.artifact(tenant, report.artifact_id) }));
    expect(Item?.data_gz).toBeInstanceOf(Uint8Array);
    expect(Item?.data).toBeUndefined();
    expect(Object.keys((await artifactRepository.get(tenant, report.artifact_id))!.data).length).toBeGreaterThan(0);
  });

  it('writes progress on its own once the last write is a second old, the latest call only', async () => {
    // A clock that moves 400 ms each time it is read: a slow agent whose steps take real time.
    let ms = Date.parse('2026-01-01T00:00:00Z');
    const slowClock = { now: () => new Date((ms += 400)) };
    const realAgent = findAgentBySlug('ai-readiness-agent')!;
    const slowAgent = {
      manifest: realAgent.manifest,
      handlers: {
        'ai_readiness.full_audit': async (_input: unknown, context: AgentContext) => {
          for (let call = 1; call <= 6; call++) await context.progress(`step ${call}`, call / 10);
          await context.emitArtifact('ai_readiness.audit_report', { done: true });
        },
      },
    };
    const slow = runnerWith({ findAgent: () => slowAgent, clock: slowClock });
    const tenant = uniqueTenant();
    const task = await storedTask(tenant);

    await expect(slow.run(tenant, task.task_id)).resolves.toBe('complete');

    const progress = (await taskEvents(tenant, task.task_id)).filter((event) => event.type === 'task.progress').map((event) => event.data.message);
    // Each flush writes the latest call only; the calls in between are covered, not repeated.
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.length).toBeLessThan(6);
    expect(progress.at(-1)).toBe('step 6');
    expect(new Set(progress).size).toBe(progress.length);
    const done = (await taskRepository.load(tenant, task.task_id))!;
    expect(done.step).toBe(7);
  });

  it('ends a task at its event\'s time, read once, even when the clock moves between readings', async () => {
    // Two readings of this clock never agree: completed_at must still be the ending event's time,
    // or usage (counted from the event) and the task's own times differ by a tick.
    let ms = Date.parse('2026-01-01T00:00:00Z');
    const tickingClock = { now: () => new Date((ms += 1)) };
    for (const [input, ending] of [[{ scope: 'full' }, 'task.complete'], [{ scope: 42 }, 'task.failed']] as const) {
      const tenant = uniqueTenant();
      const task = await storedTask(tenant, { input });
      await runnerWith({ clock: tickingClock }).run(tenant, task.task_id);
      const ended = (await taskRepository.load(tenant, task.task_id))!;
      const event = (await taskEvents(tenant, task.task_id)).find((candidate) => candidate.type === ending)!;
      expect(ended.completed_at, ending).toBe(event.created_at);
    }
  });

  it('fails input that breaks the manifest schema with malformed_input and its details', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant, { input: { scope: 42, surprise: true } });

    await expect(runner.run(tenant, task.task_id)).resolves.toBe('failed');

    const failed = (await taskRepository.load(tenant, task.task_id))!;
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('malformed_input');
    expect(failed.error?.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining('input') })]));
    const events = (await taskEvents(tenant, task.task_id)).map((event) => event.type);
    expect(events.filter((type) => type === 'task.failed')).toHaveLength(1);
  });

  it('continues where a dead worker stopped: no duplicate artifact, event or transition', async () => {
    const tenant = uniqueTenant();
    const reference = await storedTask(tenant);
    await runner.run(tenant, reference.task_id);
    const eventsOfCleanRun = (await taskEvents(tenant, reference.task_id)).length;
    const task = await storedTask(tenant);

    const deaths = await runUntilItSurvives(tenant, task.task_id);

    expect(deaths).toBeGreaterThan(0);
    const done = (await taskRepository.load(tenant, task.task_id))!;
    expect(done.status).toBe('complete');
    expect(Object.keys(done.artifacts)).toHaveLength(2);
    const events = await taskEvents(tenant, task.task_id);
    expect(events).toHaveLength(eventsOfCleanRun);
    expect(events.filter((event) => event.type === 'artifact.emitted').map((event) => event.data.artifact_id).sort()).toEqual(Object.keys(done.artifacts).sort());
    expect(await artifactRepository.getMany(tenant, Object.keys(done.artifacts))).toHaveLength(2);
  });

  it('continues after a worker died right after its write committed: nothing written twice', async () => {
    const tenant = uniqueTenant();
    const reference = await storedTask(tenant);
    await runner.run(tenant, reference.task_id);
    const eventsOfCleanRun = (await taskEvents(tenant, reference.task_id)).length;
    const task = await storedTask(tenant);

    const deaths = await runUntilItSurvives(tenant, task.task_id, 'after');

    expect(deaths).toBeGreaterThan(0);
    const done = (await taskRepository.load(tenant, task.task_id))!;
    expect(done.status).toBe('complete');
    expect(Object.keys(done.artifacts)).toHaveLength(2);
    const events = await taskEvents(tenant, task.task_id);
    expect(events).toHaveLength(eventsOfCleanRun);
    expect(events.filter((event) => event.type === 'task.complete')).toHaveLength(1);
    expect(await artifactRepository.getMany(tenant, Object.keys(done.artifacts))).toHaveLength(2);
  });

  it('runs a task once when the same message is delivered twice at the same time', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant);

    const outcomes = await Promise.all([runner.run(tenant, task.task_id), runner.run(tenant, task.task_id)]);

    expect(outcomes).toContain('complete');
    const done = (await taskRepository.load(tenant, task.task_id))!;
    expect(Object.keys(done.artifacts)).toHaveLength(2);
    const events = (await taskEvents(tenant, task.task_id)).map((event) => event.type);
    expect(events.filter((type) => type === 'task.complete')).toHaveLength(1);
    expect(events.filter((type) => type === 'task.started')).toHaveLength(1);
    expect(events.filter((type) => type === 'artifact.emitted')).toHaveLength(2);
  });

  it('stops a task cancelled mid-run at its next step and discards the artifacts it emitted', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant);
    const cancelAfterFirstArtifact: TaskExecutionStore = {
      ...dyingStore(1000),
      emitArtifact: async (current, step, artifact, event, progress) => {
        const outcome = await taskRepository.emitArtifact(current, step, artifact, event, progress);
        const latest = (await taskRepository.load(tenant, task.task_id))!;
        if (latest.status === 'running') await taskRepository.cancel(latest, { ...event, event_id: newId('evt'), type: 'task.cancelled' });
        return outcome;
      },
    };
    const cancelling = runnerWith({ store: cancelAfterFirstArtifact });

    await expect(cancelling.run(tenant, task.task_id)).resolves.toBe('stopped');

    const cancelled = (await taskRepository.load(tenant, task.task_id))!;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.artifacts).toEqual({});
    const emitted = (await taskEvents(tenant, task.task_id)).filter((event) => event.type === 'artifact.emitted');
    expect(emitted).toHaveLength(1);
    await expect(artifactRepository.get(tenant, emitted[0].data.artifact_id as string)).resolves.toBeUndefined();
    await expect(runner.run(tenant, task.task_id)).resolves.toBe('skipped');
  });

  it('lets exactly one of two racing cancels win; the other gets a conflict', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant);
    const event = (id: string) => ({ event_id: id, type: 'task.cancelled' as const, created_at: new Date().toISOString(), tenant_id: tenant, task_id: task.task_id, data: {} });

    const results = await Promise.allSettled([taskRepository.cancel(task, event(newId('evt'))), taskRepository.cancel(task, event(newId('evt')))]);

    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'task_not_cancellable' });
  });
});
