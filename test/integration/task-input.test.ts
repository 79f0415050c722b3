import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { INLINE_INPUT_MAX_BYTES } from '#shared/adapters/dynamodb/task-input';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { findAgentBySlug } from '#shared/agents/catalog';
import { systemClock } from '#shared/domain/clock';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { approvalGate } from '#shared/services/approval-gate';
import { retentionStamps } from '#shared/services/retention-stamps';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { storedTask } from '../support/task-fixtures';

/** A full-audit input of about 45 KB: thirty AI systems, each with a long purpose. */
const largeInput = {
  scope: 'full',
  systems: Array.from({ length: 30 }, (_, index) => ({
    id: `system-${index}`,
    name: `System ${index}`,
    category: index % 2 === 0 ? 'chatbot' : 'employment',
    purpose: `Purpose of system ${index}: ${'screens, ranks and explains decisions to the people concerned. '.repeat(22)}`,
    uses_personal_data: true,
  })),
  evidence: ['ai_inventory'],
};

const rawItem = async (key: { pk: string; sk: string }) => (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

describe('task inputs larger than a write unit are stored once, beside the task', () => {
  beforeAll(async () => {
    await provisionForTest('task-input');
  });

  it('keeps a small input inline, with no item of its own', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant);
    expect(bytesOf(task.input)).toBeLessThanOrEqual(INLINE_INPUT_MAX_BYTES);
    expect((await rawItem(keys.task(tenant, task.task_id)))?.input).toEqual(task.input);
    expect(await rawItem(keys.taskInput(tenant, task.task_id))).toBeUndefined();
    expect((await taskRepository.load(tenant, task.task_id))?.input).toEqual(task.input);
  });

  it('stores a large input in its own item and gives it back on every read', async () => {
    expect(bytesOf(largeInput)).toBeGreaterThan(40 * 1024);
    const tenant = uniqueTenant();
    const task = await storedTask(tenant, { input: largeInput });

    const taskItem = await rawItem(keys.task(tenant, task.task_id));
    expect(taskItem?.input).toBeUndefined();
    // What every later update of the task is billed by: under one write unit, not 45.
    expect(bytesOf(taskItem)).toBeLessThan(1024);
    expect((await rawItem(keys.taskInput(tenant, task.task_id)))?.input).toEqual(largeInput);

    const loaded = await taskRepository.load(tenant, task.task_id);
    expect(loaded).toEqual(task);
    expect(loaded).not.toHaveProperty('input_apart');

    const listed = await taskRepository.list(tenant, { limit: 10 });
    expect(listed.tasks).toEqual([task]);
    const byAgent = await taskRepository.list(tenant, { limit: 10, agent: task.agent });
    expect(byAgent.tasks).toEqual([task]);
  });

  it('lists a page that mixes inline and stored-apart inputs, each with its own', async () => {
    const tenant = uniqueTenant();
    const small = await storedTask(tenant);
    const large = await storedTask(tenant, { input: largeInput });
    const otherLarge = await storedTask(tenant, { input: { ...largeInput, evidence: ['ai_governance_policy'] } });
    const { tasks } = await taskRepository.list(tenant, { limit: 10 });
    expect(tasks.map((listed) => [listed.task_id, listed.input])).toEqual([
      [otherLarge.task_id, otherLarge.input],
      [large.task_id, large.input],
      [small.task_id, small.input],
    ]);
  });

  it('runs a task with a large input to complete: the agent sees the whole input, the task item stays small', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant, { input: largeInput });
    const runner = new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps });
    await runner.run(tenant, task.task_id);

    const done = await taskRepository.load(tenant, task.task_id);
    expect(done?.status).toBe('complete');
    expect(done?.input).toEqual(largeInput);
    expect(Object.keys(done?.artifacts ?? {}).length).toBeGreaterThan(0);
    const taskItem = await rawItem(keys.task(tenant, task.task_id));
    expect(taskItem?.input).toBeUndefined();
    expect(bytesOf(taskItem)).toBeLessThan(2048);
  });
});
