import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, batchWriteAll } from '#shared/adapters/dynamodb/batch';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { artifactItem } from '#shared/adapters/dynamodb/artifact-repository';
import { queryPage } from '#shared/adapters/dynamodb/paged-query';
import { keys, ACTIVE_TASK_SHARDS } from '#shared/adapters/dynamodb/keys';
import type { TaskOrigin } from '#shared/adapters/dynamodb/entities/session';
import { GSI1, GSI2 } from '#shared/adapters/dynamodb/table-definition';
import { encodeCursor, decodeCursor } from '#shared/adapters/dynamodb/cursor';
import { itemsOfShardedIndex } from '#shared/adapters/dynamodb/sharded-index';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { withInput, withInputs } from '#shared/adapters/dynamodb/task-input';
import { followsStep, storedTaskState, taskTransition, type ExpressionPart, type TransactItem } from '#shared/adapters/dynamodb/task-transition';
import type { Artifact } from '#shared/domain/artifact';
import type { ServiceEvent } from '#shared/domain/event';
import type { BufferedProgress, StepOutcome, TaskExecutionStore } from '#shared/domain/ports';
import type { Task, TaskError } from '#shared/domain/task';
import type { ToolCallRecord } from '#shared/domain/tools';
import { refusedStepOutcome, transitionConflict, transitionOf, type TaskStatus } from '#shared/domain/task-state';

type Item = Record<string, NativeAttributeValue>;

export interface TaskListQuery {
  agent?: string;
  status?: TaskStatus;
  /** The session or trigger whose tasks to list. */
  origin?: TaskOrigin;
  limit: number;
  cursor?: string;
}

/** Tasks in the single table. Every write of a task's state goes through `taskTransition` (task-transition.ts). */
export class DynamoTaskRepository implements TaskExecutionStore {
  private get client() {
    return documentClient();
  }

  /**
   * Creates the task and its `task.created` event in one transaction, with `with` (a session
   * message that starts it). False when a condition failed: the task exists already, or its
   * session is closed or gone (the caller reads the session to say which).
   */
  async create(task: Task, event: ServiceEvent, with_: { items?: TransactItem[]; events?: ServiceEvent[] } = {}): Promise<boolean> {
    return Boolean(await taskTransition({ task, trigger: 'create', items: with_.items, events: [event, ...(with_.events ?? [])] }));
  }

  async load(tenantId: string, taskId: string): Promise<Task | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.task(tenantId, taskId), ConsistentRead: true }));
    return Item ? stripKeys<Task>(await withInput(Item)) : undefined;
  }

  /** Newest first. Filters that DynamoDB applies after reading are paged until the page is full. */
  async list(tenantId: string, query: TaskListQuery): Promise<{ tasks: Task[]; nextCursor: string | null }> {
    if (query.origin) return this.listOfOrigin(tenantId, keys.originPartition(tenantId, query.origin), query);
    const index = query.agent ? GSI2 : GSI1;
    const partition = query.agent ? keys.tasksByAgentPartition(tenantId, query.agent) : keys.tasksPartition(tenantId);
    const scope = `tasks|${partition}|${query.status ?? ''}`;
    let startKey: Item | undefined = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: index.partitionKey, partition });
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
    return { tasks, nextCursor: await encodeCursor(tenantId, scope, startKey) };
  }

  /**
   * The tasks a session or trigger started, newest first: its partition's references, then the
   * tasks themselves (strongly consistent: a reference is written with its task). Filters apply
   * to the tasks read, page after page until the page is full, so every reference read is either
   * returned or filtered out and the cursor resumes right after the last one.
   */
  private async listOfOrigin(tenantId: string, origin: string, query: TaskListQuery): Promise<{ tasks: Task[]; nextCursor: string | null }> {
    const scope = `origin|${origin}|${query.agent ?? ''}|${query.status ?? ''}`;
    let startKey: Item | undefined = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: 'pk', partition: origin });
    const tasks: Task[] = [];
    for (let round = 0; round < 25 && tasks.length < query.limit; round++) {
      const page = await this.client.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :task)',
          ExpressionAttributeValues: { ':pk': origin, ':task': 'TASK#' },
          ScanIndexForward: false,
          Limit: query.limit - tasks.length,
          ExclusiveStartKey: startKey,
        }),
      );
      const ids = (page.Items ?? []).map((item) => item.task_id as string);
      const found = (await batchGetAll(ids.map((id) => keys.task(tenantId, id)), { consistentRead: true })).map((item) => stripKeys<Task>(item));
      const byId = new Map(found.map((task) => [task.task_id, task]));
      const listed = ids.flatMap((id) => byId.get(id) ?? []).filter((task) => (!query.status || task.status === query.status) && (!query.agent || task.agent === query.agent));
      tasks.push(...(await withInputs(listed)));
      startKey = page.LastEvaluatedKey;
      if (!startKey) break;
    }
    return { tasks, nextCursor: await encodeCursor(tenantId, scope, startKey) };
  }

  async start(task: Task, event: ServiceEvent): Promise<Task | undefined> {
    const status = await taskTransition({ task, trigger: 'start', at: event.created_at, fields: { started_at: event.created_at }, events: [event] });
    return status ? { ...task, status, started_at: event.created_at, updated_at: event.created_at } : undefined;
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

  /** Applies call `step` (a tool call) with its record, its event and the progress buffered before it. */
  recordToolCall(task: Task, step: number, record: ToolCallRecord, event: ServiceEvent, progress?: BufferedProgress): Promise<StepOutcome> {
    const item = { ...keys.toolCall(task.tenant_id, task.task_id, step), entity: 'tool_call', tenant_id: task.tenant_id, ...record };
    return this.applyStep(task, step, step - 1 - (progress?.calls ?? 0), [{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }], progress ? [progress.event, event] : [event]);
  }

  /** The record of tool call `step`, which a replay returns instead of calling again. */
  async toolCall(task: Task, step: number): Promise<ToolCallRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.toolCall(task.tenant_id, task.task_id, step), ConsistentRead: true }));
    if (!Item) return undefined;
    const { tenant_id, ...record } = stripKeys<ToolCallRecord & { tenant_id: string }>(Item);
    void tenant_id;
    return record;
  }

  /**
   * Applies agent-context calls `previous + 1`..`step` exactly once, with their events: the write
   * holds only if the task is still running and exactly `previous` calls were applied before it.
   * Several calls share one write when progress calls were buffered (docs/agent-runtime.md).
   */
  private async applyStep(task: Task, step: number, previous: number, items: TransactItem[], events: ServiceEvent[], update?: ExpressionPart): Promise<StepOutcome> {
    const at = events.at(-1)!.created_at;
    if (await taskTransition({ task, trigger: 'step', at, fields: { step }, update, condition: followsStep(previous), items, events })) return 'applied';
    return refusedStepOutcome(task.shape, 'step', step, await storedTaskState(task));
  }

  complete(task: Task, event: ServiceEvent, emitted: readonly string[] = []): Promise<StepOutcome> {
    return this.finish(task, 'complete', { completed_at: event.created_at }, event, undefined, emitted);
  }

  fail(task: Task, error: TaskError, event: ServiceEvent, emitted: readonly string[] = []): Promise<StepOutcome> {
    return this.finish(task, 'fail', { completed_at: event.created_at, error }, event, undefined, emitted);
  }

  /**
   * running → failed with `agent_timeout`, for the stuck-work sweeper: only while the task is still
   * in the run the sweeper judged (same `started_at` and `resumed_at`), so a task that paused and
   * resumed in between, or that a worker completed or failed meanwhile, is left alone.
   */
  timeOut(task: Task, error: TaskError, event: ServiceEvent): Promise<StepOutcome> {
    const names: Record<string, string> = {};
    const values: Item = {};
    const sameRun = (['started_at', 'resumed_at'] as const).map((field) => {
      names[`#${field}Seen`] = field;
      if (task[field] === undefined) return `attribute_not_exists(#${field}Seen)`;
      values[`:${field}Seen`] = task[field];
      return `#${field}Seen = :${field}Seen`;
    });
    return this.finish(task, 'time_out', { completed_at: event.created_at, error }, event, { expression: sameRun.join(' AND '), names, values });
  }

  private async finish(task: Task, trigger: 'complete' | 'fail' | 'time_out', fields: Item, event: ServiceEvent, condition?: ExpressionPart, emitted: readonly string[] = []): Promise<StepOutcome> {
    if (await taskTransition({ task, trigger, at: event.created_at, fields, condition, events: [event], emitted })) return 'applied';
    const current = await storedTaskState(task);
    return current?.status === transitionOf(task.shape, trigger).to ? 'already_applied' : 'task_not_running';
  }

  /**
   * Cancels a waiting, running or parked task and records `task.cancelled`. Throws a
   * ConflictError when the task already ended; exactly one of two racing cancels wins.
   */
  async cancel(task: Task, event: ServiceEvent): Promise<Task> {
    const status = await taskTransition({ task, trigger: 'cancel', at: event.created_at, fields: { completed_at: event.created_at }, events: [event] });
    if (!status) throw transitionConflict((await storedTaskState(task))?.status ?? task.status, 'cancel');
    const cancelled: Task = { ...task, status, updated_at: event.created_at, completed_at: event.created_at };
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
