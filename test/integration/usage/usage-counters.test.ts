import { beforeAll, describe, expect, it } from 'vitest';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { addUsage, readUsage } from '#shared/adapters/dynamodb/usage-repository';
import { systemClock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import type { Task } from '#shared/domain/task';
import { monthUsage, usageCsv } from '#shared/services/usage';
import { parse } from 'csv-parse/sync';
import { provisionForTest, uniqueTenant } from '../../support/provisioned';

function newTask(tenant: string, createdAt: string, overrides: Partial<Task> = {}): Task {
  return {
    task_id: newId('tsk'), tenant_id: tenant, shape: 'slug', agent: 'sales', agent_id: 'agt_test', task_type: 'sales.find_leads', input: {},
    status: 'queued', priority: 'normal', created_at: createdAt, updated_at: createdAt, step: 0, artifacts: {}, decisions: {}, ...overrides,
  };
}

const at = (iso: string) => ({ now: () => new Date(iso) });

describe('usage counters on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('usage');
  });

  it('count a task created and completed once, even when the same writes are tried twice', async () => {
    const tenant = uniqueTenant();
    const task = newTask(tenant, '2031-03-10T10:00:00.000Z');
    await taskRepository.create(task, taskEvent('task.created', task, {}, at(task.created_at)));
    await expect(taskRepository.create(task, taskEvent('task.created', task, {}, at(task.created_at)))).resolves.toBe(false);
    const started = await taskRepository.start(task, taskEvent('task.started', task, {}, at('2031-03-10T10:00:01.000Z')));
    expect(started).toBeDefined();
    // A second worker that took the same message: its start and completion lose and count nothing.
    expect(await taskRepository.start(task, taskEvent('task.started', task, {}, at('2031-03-10T10:00:02.000Z')))).toBeUndefined();
    const completedAt = '2031-03-10T10:00:03.500Z';
    expect(await taskRepository.complete(started!, taskEvent('task.complete', started!, {}, at(completedAt)))).toBe('applied');
    expect(await taskRepository.complete(started!, taskEvent('task.complete', started!, {}, at(completedAt)))).toBe('already_applied');

    const usage = await monthUsage(tenant, '2031-03');
    expect(usage).toMatchObject({ month: '2031-03', tasks_created: 1, tasks_completed: 1, tasks_failed: 0, tasks_cancelled: 0, task_seconds: 2.5 });
    expect(usage.by_agent).toEqual({ sales: { tasks_created: 1, tasks_completed: 1, task_seconds: 2.5, by_task_type: { 'sales.find_leads': { tasks_created: 1, tasks_completed: 1, task_seconds: 2.5 } } } });
  });

  it('count each change in the UTC month it happened, and a cancel that won once', async () => {
    const tenant = uniqueTenant();
    // Created on the last evening of April in UTC, cancelled after midnight: two months.
    const task = newTask(tenant, '2031-04-30T23:59:59.000Z');
    await taskRepository.create(task, taskEvent('task.created', task, {}, at(task.created_at)));
    const cancelledAt = '2031-05-01T00:00:01.000Z';
    await taskRepository.cancel(task, taskEvent('task.cancelled', task, {}, at(cancelledAt)));
    await expect(taskRepository.cancel(task, taskEvent('task.cancelled', task, {}, at(cancelledAt)))).rejects.toThrow();

    expect(await monthUsage(tenant, '2031-04')).toMatchObject({ tasks_created: 1, tasks_cancelled: 0, task_seconds: 0 });
    const may = await monthUsage(tenant, '2031-05');
    // Never started: it ran no seconds, and a cancel is not a completion.
    expect(may).toMatchObject({ tasks_created: 0, tasks_cancelled: 1, tasks_completed: 0, task_seconds: 0 });
    expect(may.by_agent).toEqual({});
    expect(await monthUsage(tenant, '2031-06')).toEqual({
      month: '2031-06', tasks_created: 0, tasks_completed: 0, tasks_failed: 0, tasks_cancelled: 0, task_seconds: 0, scans: 0, pages_scanned: 0, approvals: 0, tool_calls: 0, webhook_deliveries: 0, by_agent: {},
    });
  });

  it('count every one of many tasks a tenant creates at once, spread over the shards of the month', async () => {
    const tenant = uniqueTenant();
    const created = Array.from({ length: 40 }, () => newTask(tenant, '2031-08-01T00:00:00.000Z'));
    await Promise.all(created.map((task) => taskRepository.create(task, taskEvent('task.created', task, {}, at(task.created_at)))));
    expect((await monthUsage(tenant, '2031-08')).tasks_created).toBe(40);
  });

  it('sum the shards of a month, and give a CSV by agent and task type that sums to the JSON', async () => {
    const tenant = uniqueTenant();
    const types = [['sales', 'sales.find_leads'], ['sales', 'sales.draft_email'], ['ai-readiness-agent', 'ai_readiness.full_audit']] as const;
    await Promise.all(
      Array.from({ length: 24 }, (_, index) => {
        const [agent, task_type] = types[index % types.length];
        return addUsage({ tenantId: tenant, at: '2031-07-15T12:00:00.000Z', shardBy: newId('tsk'), counts: { tasks_created: 1, task_seconds: 0.1, pages_scanned: 2 }, byTaskType: { agent, task_type, counts: { tasks_created: 1, task_seconds: 0.1 } } });
      }),
    );
    const raw = await readUsage(tenant, '2031-07');
    expect(raw.totals).toMatchObject({ tasks_created: 24, task_seconds: 2.4, pages_scanned: 48 });

    const usage = await monthUsage(tenant, '2031-07');
    const rows = parse(usageCsv(usage), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => `${row.agent}/${row.task_type}`)).toEqual(['ai-readiness-agent/ai_readiness.full_audit', 'sales/sales.draft_email', 'sales/sales.find_leads']);
    expect(rows.reduce((sum, row) => sum + Number(row.tasks_created), 0)).toBe(usage.tasks_created);
    expect(rows.reduce((sum, row) => sum + Number(row.task_seconds), 0)).toBeCloseTo(usage.task_seconds, 6);
    expect(rows.every((row) => row.month === '2031-07' && row.tasks_created === '8')).toBe(true);
  });
});
