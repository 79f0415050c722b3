import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '#shared/adapters/dynamodb/batch';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { artifactItem } from '#shared/adapters/dynamodb/artifact-repository';
import { queryPage } from '#shared/adapters/dynamodb/paged-query';
import { keys, ACTIVE_TASK_SHARDS } from '#shared/adapters/dynamodb/keys';
import { GSI1, GSI2, GSI3 } from '#shared/adapters/dynamodb/table-definition';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { encodeCursor, decodeCursor } from '#shared/adapters/dynamodb/cursor';
import { itemsOfShardedIndex } from '#shared/adapters/dynamodb/sharded-index';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { splitTaskInput, withInput, withInputs } from '#shared/adapters/dynamodb/task-input';
import type { Artifact } from '#shared/domain/artifact';
import type { ServiceEvent } from '#shared/domain/event';
import type { BufferedProgress, StepOutcome, TaskExecutionStore } from '#shared/domain/ports';
import type { Task, TaskError } from '#shared/domain/task';
import { sourceStatuses, transitionConflict, isDispatchable, type TaskStatus, type TaskTrigger } from '#shared/domain/task-state';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';

type Item = Record<string, NativeAttributeValue>;

/** The task's item and, when its input is large, the item that holds the input (task-input.ts). */
function taskItems(task: Task): { taskItem: Item; inputItem?: Item } {
  const { taskFields, inputItem } = splitTaskInput(task);
  return {
    taskItem: {
      ...keys.task(task.tenant_id, task.task_id),
      ...keys.taskListing(task.tenant_id, task.task_id),
      ...keys.taskByAgentListing(task.tenant_id, task.agent, task.task_id),
      ...(isDispatchable(task.status) ? keys.activeTask(task.tenant_id, task.task_id) : {}),
      entity: 'task',
      ...taskFields,
    },
    inputItem,
  };
}

const statusCondition = (trigger: TaskTrigger, task: Task) => {
  const sources = sourceStatuses(task.shape, trigger);
  const names = sources.map((_, index) => `:from${index}`);
  return {
    expression: `#status IN (${names.join(', ')})`,
    values: Object.fromEntries(sources.map((status, index) => [names[index], status])),
  };
};

/**
 * Counts a task's terminal transition, here where it is applied exactly once (the conditional
 * write that won), whichever path ended it: the worker, a cancel, the sweeper.
 */
function countTerminal(task: Task, status: 'complete' | 'failed' | 'cancelled', at: string, error?: TaskError): void {
  const breakdown = { agent: task.agent, task_type: task.task_type };
  recordMetric(status === 'complete' ? 'tasksCompleted' : status === 'failed' ? 'tasksFailed' : 'tasksCancelled', 1, breakdown);
  recordMetric('taskDuration', Math.max(0, Date.parse(at) - Date.parse(task.created_at)), breakdown);
  logger.info('task ended', { tenant_id: task.tenant_id, task_id: task.task_id, status, agent: task.agent, task_type: task.task_type, ...(error ? { error_code: error.code } : {}) });
}

export interface TaskListQuery {
  agent?: string;
  status?: TaskStatus;
  limit: number;
  cursor?: string;
}

/** Tasks in the single table. Every write that changes a task's state is conditional. */
export class DynamoTaskRepository implements TaskExecutionStore {
  private get client() {
    return documentClient();
  }

  /**
   * Creates the task and its `task.created` event in one transaction. A large input is put just
   * before, on its own: no reader looks for it until the task exists, and outside the transaction
   * it is billed once per KB instead of twice. A transaction that then fails leaves the input item
   * without a task, which nothing reads.
   */
  async create(task: Task, event: ServiceEvent): Promise<void> {
    const { taskItem, inputItem } = taskItems(task);
    if (inputItem) await this.client.send(new PutCommand({ TableName: tableName(), Item: inputItem }));
    await this.client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: taskItem, ConditionExpression: 'attribute_not_exists(pk)' } },
          await eventPut(event),
        ],
      }),
    );
  }

  async load(tenantId: string, taskId: string): Promise<Task | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.task(tenantId, taskId), ConsistentRead: true }));
    return Item ? stripKeys<Task>(await withInput(Item)) : undefined;
  }

  /** Newest first. Filters that DynamoDB applies after reading are paged until the page is full. */
  async list(tenantId: string, query: TaskListQuery): Promise<{ tasks: Task[]; nextCursor: string | null }> {
    const index = query.agent ? GSI2 : GSI1;
    const partition = query.agent ? keys.tasksByAgentPartition(tenantId, query.agent) : keys.tasksPartition(tenantId);
    const scope = `tasks|${partition}|${query.status ?? ''}`;
    let startKey: Item | undefined = decodeCursor(scope, query.cursor, { partitionAttribute: index.partitionKey, partition });
    const page = await queryPage<Task>(
      {
        TableName: tableName(),
        IndexName: index.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey, ...(query.status ? { '#status': 'status' } : {}) },
        ExpressionAttributeValues: { ':pk': partition, ...(query.status ? { ':status': query.status } : {}) },
        ...(query.status ? { FilterExpression: '#status = :status' } : {}),
        ScanIndexForward: false,
      },
      query.limit,
      startKey,
      // gsi2 copies keys and status only (table-definition.ts).
      { fromTable: index.projection !== 'ALL' },
    );
    // The index lags the table a little: a task read from the table may have moved on from the status asked for.
    const listed = await withInputs(page.items);
    const tasks = query.status ? listed.filter((task) => task.status === query.status) : listed;
    startKey = page.lastKey;
    return { tasks, nextCursor: encodeCursor(scope, startKey) };
  }

  async start(task: Task, event: ServiceEvent): Promise<Task | undefined> {
    const condition = statusCondition('start', task);
    try {
      const result = await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.task(task.tenant_id, task.task_id),
                UpdateExpression: 'SET #status = :running, started_at = :now, updated_at = :now',
                ConditionExpression: condition.expression,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ...condition.values, ':running': 'running', ':now': event.created_at },
              },
            },
            await eventPut(event),
          ],
        }),
      );
      void result;
      return { ...task, status: 'running', started_at: event.created_at, updated_at: event.created_at };
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  recordProgress(task: Task, step: number, progress: BufferedProgress): Promise<StepOutcome> {
    return this.applyStep(task, step, step - progress.calls, [], [progress.event]);
  }

  emitArtifact(task: Task, step: number, artifact: Artifact, event: ServiceEvent, progress?: BufferedProgress): Promise<StepOutcome> {
    const summary = {
      artifact_id: artifact.artifact_id,
      type: artifact.type,
      created_at: artifact.created_at,
      step,
      ...(artifact.retention_version !== undefined ? { retention_version: artifact.retention_version } : {}),
    };
    return this.applyStep(
      task,
      step,
      step - 1 - (progress?.calls ?? 0),
      [{ Put: { TableName: tableName(), Item: artifactItem(artifact), ConditionExpression: 'attribute_not_exists(pk)' } }],
      progress ? [progress.event, event] : [event],
      { expression: 'artifacts.#artifactId = :summary', names: { '#artifactId': artifact.artifact_id }, values: { ':summary': summary } },
    );
  }

  /**
   * Applies agent-context calls `previous + 1`..`step` exactly once, with their events: the write
   * holds only if the task is still running and exactly `previous` calls were applied before it.
   * Several calls share one write when progress calls were buffered (docs/agent-runtime.md).
   */
  private async applyStep(
    task: Task,
    step: number,
    previous: number,
    extraWrites: object[],
    events: ServiceEvent[],
    update?: { expression: string; names: Record<string, string>; values: Item },
  ): Promise<StepOutcome> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.task(task.tenant_id, task.task_id),
                UpdateExpression: `SET step = :step, updated_at = :now${update ? `, ${update.expression}` : ''}`,
                ConditionExpression: '#status = :running AND step = :previous',
                ExpressionAttributeNames: { '#status': 'status', ...(update?.names ?? {}) },
                ExpressionAttributeValues: { ':step': step, ':previous': previous, ':running': 'running', ':now': events.at(-1)!.created_at, ...(update?.values ?? {}) },
              },
            },
            ...extraWrites,
            ...(await Promise.all(events.map((event) => eventPut(event)))),
          ] as never,
        }),
      );
      return 'applied';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return this.explainStepFailure(task, step);
    }
  }

  private async explainStepFailure(task: Task, step: number): Promise<StepOutcome> {
    const current = await this.load(task.tenant_id, task.task_id);
    if (!current || current.status !== 'running') return 'task_not_running';
    return current.step >= step ? 'already_applied' : 'task_not_running';
  }

  complete(task: Task, completedAt: string, event: ServiceEvent): Promise<StepOutcome> {
    return this.finish(task, 'complete', { completed_at: completedAt }, event);
  }

  fail(task: Task, error: TaskError, failedAt: string, event: ServiceEvent): Promise<StepOutcome> {
    return this.finish(task, 'fail', { completed_at: failedAt, error }, event);
  }

  /**
   * running → failed with `agent_timeout`, for the stuck-work sweeper: only while the task is still
   * in the run the sweeper judged (same `started_at` and `resumed_at`), so a task that paused and
   * resumed in between, or that a worker completed or failed meanwhile, is left alone.
   */
  timeOut(task: Task, error: TaskError, failedAt: string, event: ServiceEvent): Promise<StepOutcome> {
    const names: Record<string, string> = {};
    const values: Item = {};
    const sameRun = (['started_at', 'resumed_at'] as const).map((field) => {
      names[`#${field}Seen`] = field;
      if (task[field] === undefined) return `attribute_not_exists(#${field}Seen)`;
      values[`:${field}Seen`] = task[field];
      return `#${field}Seen = :${field}Seen`;
    });
    return this.finish(task, 'time_out', { completed_at: failedAt, error }, event, { expression: sameRun.join(' AND '), names, values });
  }

  private async finish(task: Task, trigger: 'complete' | 'fail' | 'time_out', fields: Item, event: ServiceEvent, extra?: { expression: string; names: Record<string, string>; values: Item }): Promise<StepOutcome> {
    const condition = statusCondition(trigger, task);
    const to = trigger === 'complete' ? 'complete' : 'failed';
    const sets = Object.keys(fields).map((name) => `#${name} = :${name}`);
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.task(task.tenant_id, task.task_id),
                UpdateExpression: `SET #status = :to, updated_at = :now, ${sets.join(', ')} REMOVE ${GSI3.partitionKey}, ${GSI3.sortKey}`,
                ConditionExpression: extra ? `${condition.expression} AND ${extra.expression}` : condition.expression,
                ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(Object.keys(fields).map((name) => [`#${name}`, name])), ...extra?.names },
                ExpressionAttributeValues: {
                  ...condition.values,
                  ...extra?.values,
                  ':to': to,
                  ':now': event.created_at,
                  ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [`:${name}`, value])),
                },
              },
            },
            await eventPut(event),
          ],
        }),
      );
      countTerminal(task, to, event.created_at, fields.error as TaskError | undefined);
      return 'applied';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.load(task.tenant_id, task.task_id);
      return current?.status === to ? 'already_applied' : 'task_not_running';
    }
  }

  /**
   * Cancels a waiting, running or parked task and records `task.cancelled`. Throws a
   * ConflictError when the task already ended; exactly one of two racing cancels wins.
   */
  async cancel(task: Task, event: ServiceEvent): Promise<Task> {
    const condition = statusCondition('cancel', task);
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.task(task.tenant_id, task.task_id),
                UpdateExpression: `SET #status = :cancelled, updated_at = :now, completed_at = :now REMOVE ${GSI3.partitionKey}, ${GSI3.sortKey}`,
                ConditionExpression: condition.expression,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ...condition.values, ':cancelled': 'cancelled', ':now': event.created_at },
              },
            },
            await eventPut(event),
          ],
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.load(task.tenant_id, task.task_id);
      throw transitionConflict(current?.status ?? task.status, 'cancel');
    }
    const cancelled: Task = { ...task, status: 'cancelled', updated_at: event.created_at, completed_at: event.created_at };
    countTerminal(task, 'cancelled', event.created_at);
    await this.discardArtifacts(cancelled);
    return { ...cancelled, artifacts: {} };
  }

  /** Deletes a cancelled task's artifacts. Safe to repeat; a worker repeats it if we die here. */
  async discardArtifacts(task: Task): Promise<void> {
    const current = await this.load(task.tenant_id, task.task_id);
    const ids = Object.keys(current?.artifacts ?? {});
    // Every delete must have happened before the map is cleared, or an artifact is left behind unlisted.
    await batchWriteAll(ids.map((id) => ({ DeleteRequest: { Key: keys.artifact(task.tenant_id, id) } })));
    if (ids.length > 0) {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.task(task.tenant_id, task.task_id),
          UpdateExpression: 'SET artifacts = :none',
          ConditionExpression: '#status = :cancelled',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':none': {}, ':cancelled': 'cancelled' },
        }),
      );
    }
  }

  /**
   * Records the stuck-work sweeper's re-dispatch of a task it judged from `seen` (an index
   * snapshot). Holds only if nothing moved since: same status, no write by a worker, no re-dispatch
   * by another sweep; so overlapping sweeps send one message, not two. False when it did not hold.
   */
  async markRedispatched(seen: Task, now: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.task(seen.tenant_id, seen.task_id),
          UpdateExpression: 'SET redispatched_at = :now, redispatch_count = if_not_exists(redispatch_count, :zero) + :one',
          ConditionExpression: `#status = :status AND updated_at = :updated AND ${seen.redispatched_at ? 'redispatched_at = :redispatched' : 'attribute_not_exists(redispatched_at)'}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': now, ':zero': 0, ':one': 1, ':status': seen.status, ':updated': seen.updated_at, ...(seen.redispatched_at ? { ':redispatched': seen.redispatched_at } : {}) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Every waiting or running task as the active-task index holds it (eventually consistent snapshots). */
  async *activeTaskSnapshots(): AsyncGenerator<Task> {
    for await (const item of itemsOfShardedIndex(keys.activeShardPartition, ACTIVE_TASK_SHARDS)) yield stripKeys<Task>(item);
  }
}

export const taskRepository = new DynamoTaskRepository();
