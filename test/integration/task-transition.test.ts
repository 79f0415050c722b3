import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { GSI3 } from '#shared/adapters/dynamodb/table-definition';
import { followsStep, taskTransition } from '#shared/adapters/dynamodb/task-transition';
import { systemClock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import type { Task } from '#shared/domain/task';
import { canTransition, initialStatus, isDispatchable, nextStatus, TASK_STATUSES, TASK_TRIGGERS, type TaskShape, type TaskStatus } from '#shared/domain/task-state';
import { taskEvents } from '../support/event-reader';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const STARTED_AT = '2030-01-01T00:00:00.000Z';

function newTask(tenant: string, shape: TaskShape, status: TaskStatus): Task {
  const now = new Date().toISOString();
  return {
    task_id: newId('tsk'),
    tenant_id: tenant,
    shape,
    agent: 'sales',
    agent_id: 'agt_test',
    task_type: 'sales.find_leads',
    input: {},
    status,
    priority: 'normal',
    created_at: now,
    updated_at: now,
    ...(status === initialStatus(shape) ? {} : { started_at: STARTED_AT }),
    step: 0,
    artifacts: {},
    decisions: {},
  };
}

/** Writes a task item as it is stored in `status`, bypassing the machine: active-task keys only when dispatchable. */
async function storedIn(tenant: string, shape: TaskShape, status: TaskStatus): Promise<{ task: Task; item: Record<string, unknown> }> {
  const task = newTask(tenant, shape, status);
  const item = {
    ...keys.task(tenant, task.task_id),
    ...keys.taskListing(tenant, task.task_id),
    ...keys.taskByAgentListing(tenant, task.agent, task.task_id),
    ...(isDispatchable(status) ? keys.activeTask(tenant, task.task_id) : {}),
    entity: 'task',
    ...task,
  };
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: item }));
  return { task, item };
}

const rawTask = async (task: Task) => (await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.task(task.tenant_id, task.task_id), ConsistentRead: true }))).Item;

describe('taskTransition on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('transition');
  });

  for (const shape of ['slug', 'id'] as const) {
    for (const trigger of TASK_TRIGGERS) {
      it(`${shape}: ${trigger} applies from exactly its source states, and the active-task keys follow the target`, async () => {
        const tenant = uniqueTenant();
        const attempts = await Promise.all(
          TASK_STATUSES.map(async (from) => {
            const { task, item } = await storedIn(tenant, shape, from);
            const at = new Date().toISOString();
            const applied = await taskTransition({ task, trigger, at, events: [] });
            return { from, task, item, at, applied, after: await rawTask(task) };
          }),
        );

        for (const { from, task, item, at, applied, after } of attempts) {
          const allowed = canTransition(shape, from, trigger);
          expect({ from, applied: applied !== undefined }).toEqual({ from, applied: allowed });
          if (!allowed) {
            expect(after).toEqual(item);
            continue;
          }
          const to = nextStatus(shape, from, trigger);
          expect(applied).toBe(to);
          expect(after).toMatchObject({ status: to, updated_at: at });
          const active = keys.activeTask(task.tenant_id, task.task_id);
          if (isDispatchable(to)) expect({ from, pk: after?.[GSI3.partitionKey], sk: after?.[GSI3.sortKey] }).toEqual({ from, pk: active[GSI3.partitionKey], sk: active[GSI3.sortKey] });
          else expect({ from, keys: [after?.[GSI3.partitionKey], after?.[GSI3.sortKey]] }).toEqual({ from, keys: [undefined, undefined] });
        }
      });
    }

    it(`${shape}: create puts the task in its initial status, in the active-task index, once`, async () => {
      const tenant = uniqueTenant();
      const task = newTask(tenant, shape, initialStatus(shape));
      const event = taskEvent('task.created', task, {}, systemClock);

      expect(await taskTransition({ trigger: 'create', task, events: [event] })).toBe(initialStatus(shape));
      const item = await rawTask(task);
      expect(item).toMatchObject({ status: initialStatus(shape), ...keys.activeTask(tenant, task.task_id) });

      expect(await taskTransition({ trigger: 'create', task: { ...task, step: 9 }, events: [] })).toBeUndefined();
      expect(await rawTask(task)).toEqual(item);
      expect((await taskEvents(tenant, task.task_id)).map((one) => one.event_id)).toEqual([event.event_id]);
    });
  }

  it('refuses to create a task in any status but the initial one', async () => {
    const tenant = uniqueTenant();
    const task = newTask(tenant, 'slug', 'running');
    await expect(taskTransition({ trigger: 'create', task, events: [] })).rejects.toThrow(/starts queued/);
    expect(await rawTask(task)).toBeUndefined();
  });

  it('writes the events and extra items of an applied transition, and none of a refused one', async () => {
    const tenant = uniqueTenant();
    const { task } = await storedIn(tenant, 'slug', 'running');
    const marker = (name: string) => ({ Put: { TableName: tableName(), Item: { pk: `TEST#${task.task_id}`, sk: name } } });
    const markerItem = async (name: string) => (await documentClient().send(new GetCommand({ TableName: tableName(), Key: { pk: `TEST#${task.task_id}`, sk: name }, ConsistentRead: true }))).Item;
    const refusedEvent = taskEvent('task.progress', task, {}, systemClock);

    // The extra condition joins the source states: step 0 is applied, not 4.
    const refused = await taskTransition({ task, trigger: 'step', at: refusedEvent.created_at, fields: { step: 5 }, condition: followsStep(4), items: [marker('refused')], events: [refusedEvent] });
    const appliedEvent = taskEvent('task.progress', task, {}, systemClock);
    const applied = await taskTransition({ task, trigger: 'step', at: appliedEvent.created_at, fields: { step: 1 }, condition: followsStep(0), items: [marker('applied')], events: [appliedEvent] });

    expect([refused, applied]).toEqual([undefined, 'running']);
    expect(await markerItem('refused')).toBeUndefined();
    expect(await markerItem('applied')).toBeDefined();
    expect((await taskEvents(tenant, task.task_id)).map((event) => event.event_id)).toEqual([appliedEvent.event_id]);
    expect(await rawTask(task)).toMatchObject({ status: 'running', step: 1, updated_at: appliedEvent.created_at });
  });

  it('will not let a caller placeholder shadow one of its own', async () => {
    const tenant = uniqueTenant();
    const { task, item } = await storedIn(tenant, 'id', 'running');
    const at = new Date().toISOString();
    await expect(taskTransition({ task, trigger: 'complete', at, condition: { expression: '#status <> :to', values: { ':to': 'x' } }, events: [] })).rejects.toThrow(/Placeholder/);
    expect(await rawTask(task)).toEqual(item);
  });
});
