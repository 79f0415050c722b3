import { beforeAll, describe, expect, it } from 'vitest';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { triggerRepository } from '#shared/adapters/dynamodb/trigger-repository';
import type { Clock } from '#shared/domain/clock';
import type { ServiceEvent } from '#shared/domain/event';
import { deployAgent } from '#shared/services/agents';
import { fireEventTriggers } from '#shared/services/event-trigger-runs';
import { fireSchedule } from '#shared/services/scheduled-trigger-runs';
import { createTrigger, deleteTrigger, updateTrigger } from '#shared/services/trigger-admin';
import { listTasks } from '#shared/services/tasks';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const T0 = Date.parse('2031-05-05T10:00:00.000Z');
const at = (minutes: number): Clock => ({ now: () => new Date(T0 + minutes * 60_000) });
const minute = (minutes: number) => new Date(T0 + minutes * 60_000);
const audit = { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' }, priority: 'normal' as const };
const quarterHourly = { type: 'schedule' as const, cron: '*/15 * * * *', timezone: 'UTC', overlap: 'allow' as const };

async function tenantWithAgents(): Promise<string> {
  const tenant = uniqueTenant();
  await deployAgent(tenant, { agent_slug: 'ai-readiness' });
  await deployAgent(tenant, { agent_slug: 'sales' });
  return tenant;
}

async function tasksOf(tenant: string, triggerId: string) {
  return (await listTasks(tenant, { triggerId, limit: 100 })).tasks;
}

describe('trigger runs on DynamoDB Local and the SQS emulator', () => {
  beforeAll(async () => {
    await provisionForTest('trigger-runs');
  });

  it('makes exactly one task for a scheduled time, however often and however concurrently it fires', async () => {
    const tenant = await tenantWithAgents();
    const trigger = await createTrigger(tenant, { name: 'q', source: quarterHourly, task: audit, enabled: true }, at(0));
    const fires = await Promise.all([0, 1, 2, 3].map(() => fireSchedule(tenant, trigger.trigger_id, minute(15), at(15))));
    const again = await fireSchedule(tenant, trigger.trigger_id, minute(15), at(16));

    const created = fires.filter((run) => run?.outcome === 'task_created');
    expect(new Set(created.map((run) => run!.run_id)).size).toBe(1);
    expect(again).toBeUndefined();
    const tasks = await tasksOf(tenant, trigger.trigger_id);
    expect(tasks).toHaveLength(1);
    expect(tasks[0].trigger).toMatchObject({ type: 'schedule', trigger_id: trigger.trigger_id, scheduled_for: minute(15).toISOString() });
    const { runs } = await triggerRepository.listRuns(tenant, trigger.trigger_id, 10);
    expect(runs.map((run) => [run.outcome, run.scheduled_for])).toEqual([['task_created', minute(15).toISOString()]]);
  });

  it('after downtime runs once for the latest time and logs the times in between as missed', async () => {
    const tenant = await tenantWithAgents();
    const trigger = await createTrigger(tenant, { name: 'q', source: quarterHourly, task: audit, enabled: true }, at(0));
    await fireSchedule(tenant, trigger.trigger_id, minute(15), at(15));
    // Down from 10:16 to 11:05; the overdue schedule then fires for 10:30.
    const run = await fireSchedule(tenant, trigger.trigger_id, minute(30), at(65));

    expect(run).toMatchObject({ outcome: 'task_created', scheduled_for: minute(60).toISOString() });
    const { runs } = await triggerRepository.listRuns(tenant, trigger.trigger_id, 10);
    expect(runs.map((entry) => [entry.outcome, entry.scheduled_for])).toEqual([
      ['task_created', minute(60).toISOString()],
      ['missed', minute(45).toISOString()],
      ['missed', minute(30).toISOString()],
      ['task_created', minute(15).toISOString()],
    ]);
    expect(await tasksOf(tenant, trigger.trigger_id)).toHaveLength(2);
  });

  it('records a paused trigger\'s leftover fire as skipped_disabled, and does nothing for a deleted one', async () => {
    const tenant = await tenantWithAgents();
    const trigger = await createTrigger(tenant, { name: 'q', source: quarterHourly, task: audit, enabled: true }, at(0));
    await updateTrigger(tenant, trigger.trigger_id, { enabled: false }, at(1));
    expect(await fireSchedule(tenant, trigger.trigger_id, minute(15), at(15))).toMatchObject({ outcome: 'skipped_disabled' });
    expect(await tasksOf(tenant, trigger.trigger_id)).toEqual([]);

    await deleteTrigger(tenant, trigger.trigger_id);
    expect(await fireSchedule(tenant, trigger.trigger_id, minute(30), at(30))).toBeUndefined();
    expect(await triggerRepository.get(tenant, trigger.trigger_id)).toBeUndefined();
    expect((await triggerRepository.listRuns(tenant, trigger.trigger_id, 10)).runs).toEqual([]);
  });

  it('starts one task per trigger and artifact however often the stream delivers the event, with the mapped input', async () => {
    const tenant = await tenantWithAgents();
    const trigger = await createTrigger(tenant, {
      name: 'enrich',
      source: { type: 'event', artifact_type: 'sales.lead_list', agent: 'sales' },
      task: { agent: 'sales', task_type: 'sales.enrich_leads', input: {}, input_mapping: { leads: '/artifact/data/leads' }, priority: 'normal' },
      enabled: true,
    });
    // A lead list emitted by a real run of the sales agent.
    const { createTask } = await import('#shared/services/task-creation');
    const { AgentRunner } = await import('#shared/runtime/agent-runner');
    const { findAgentBySlug } = await import('#shared/agents/catalog');
    const { approvalGate } = await import('#shared/services/approval-gate');
    const { retentionStamps } = await import('#shared/services/retention-stamps');
    const { systemClock } = await import('#shared/domain/clock');
    const source = await createTask(tenant, { shape: 'slug', agentReference: 'sales', task_type: 'sales.find_leads', input: { industries: ['fintech'], limit: 2 }, priority: 'normal', trigger: { type: 'api' } });
    await new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps }).run(tenant, source.task_id);
    const done = (await taskRepository.load(tenant, source.task_id))!;
    const artifact = Object.values(done.artifacts)[0];
    const event: ServiceEvent = { event_id: 'evt_01jtest0000000000000000000', type: 'artifact.emitted', created_at: artifact.created_at, tenant_id: tenant, task_id: source.task_id, agent: 'sales', data: { task_id: source.task_id, artifact_id: artifact.artifact_id, type: artifact.type } };

    const deliveries = await Promise.all([fireEventTriggers(event), fireEventTriggers(event), fireEventTriggers(event)]);
    const ids = new Set(deliveries.flat().map((run) => run.run_id));
    expect(ids.size).toBe(1);
    const tasks = await tasksOf(tenant, trigger.trigger_id);
    expect(tasks).toHaveLength(1);
    expect(tasks[0].trigger).toMatchObject({ type: 'event', source_task_id: source.task_id, source_artifact_id: artifact.artifact_id, depth: 1 });
    expect((tasks[0].input.leads as unknown[]).length).toBe(2);
    // Another agent's lead list (or another type) starts nothing.
    expect(await fireEventTriggers({ ...event, agent: 'ai-readiness-agent' })).toEqual([]);
  });
});
