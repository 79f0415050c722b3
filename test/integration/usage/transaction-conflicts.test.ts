import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentClient, replaceDocumentClient } from '#shared/adapters/dynamodb/client';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { systemClock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import type { Task } from '#shared/domain/task';
import { monthUsage } from '#shared/services/usage';
import { provisionForTest, uniqueTenant } from '../../support/provisioned';

/**
 * The real client (DynamoDB Local), except that its first `refusals` transactions are refused as
 * DynamoDB refuses one that another transaction overlapped: cancelled with TransactionConflict,
 * nothing applied. DynamoDB Local serializes transactions, so it never answers this by itself.
 */
function conflictingClient(real: DynamoDBDocumentClient, refusals: number): { client: DynamoDBDocumentClient; refused: () => number } {
  let refused = 0;
  const send = async (command: unknown) => {
    if (command instanceof TransactWriteCommand && refused < refusals) {
      refused++;
      throw new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
        $metadata: {},
        CancellationReasons: (command.input.TransactItems ?? []).map((_, index) => ({ Code: index === 0 ? 'None' : 'TransactionConflict' })),
      });
    }
    return real.send(command as Parameters<DynamoDBDocumentClient['send']>[0]);
  };
  return { client: new Proxy(real, { get: (target, property, receiver) => (property === 'send' ? send : Reflect.get(target, property, receiver)) }), refused: () => refused };
}

function newTask(tenant: string): Task {
  const now = '2031-09-02T08:00:00.000Z';
  return { task_id: newId('tsk'), tenant_id: tenant, shape: 'slug', agent: 'sales', agent_id: 'agt_test', task_type: 'sales.find_leads', input: {}, status: 'queued', priority: 'normal', created_at: now, updated_at: now, step: 0, artifacts: {}, decisions: {} };
}

describe('transactions refused for a conflict on a shared usage counter', () => {
  beforeAll(async () => {
    await provisionForTest('usage-conflicts');
  });

  afterEach(() => replaceDocumentClient());

  it('are sent again, and the change counts once', async () => {
    const tenant = uniqueTenant();
    const task = newTask(tenant);
    const wrapper = conflictingClient(documentClient(), 2);
    replaceDocumentClient(wrapper.client);
    await taskRepository.create(task, taskEvent('task.created', task, {}, systemClock));
    replaceDocumentClient();
    expect(wrapper.refused()).toBe(2);
    expect(await taskRepository.load(tenant, task.task_id)).toMatchObject({ status: 'queued' });
    expect((await monthUsage(tenant, '2031-09')).tasks_created).toBe(1);
  });

  it('surface as an error when they keep being refused, having changed nothing', async () => {
    const tenant = uniqueTenant();
    const task = newTask(tenant);
    replaceDocumentClient(conflictingClient(documentClient(), 1_000).client);
    await expect(taskRepository.create(task, taskEvent('task.created', task, {}, systemClock))).rejects.toThrow(/TransactionConflict/);
    replaceDocumentClient();
    expect(await taskRepository.load(tenant, task.task_id)).toBeUndefined();
    expect((await monthUsage(tenant, '2031-09')).tasks_created).toBe(0);
  });
});
