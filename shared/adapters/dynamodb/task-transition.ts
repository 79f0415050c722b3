import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { keys } from '#shared/adapters/dynamodb/keys';
import { GSI3 } from '#shared/adapters/dynamodb/table-definition';
import { splitTaskInput } from '#shared/adapters/dynamodb/task-input';
import { transactWrite, type TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import { agentMessageWrites, originReference, sessionTaskCreation } from '#shared/adapters/dynamodb/session-repository';
import { usageUpdate } from '#shared/adapters/dynamodb/usage-repository';
import type { ServiceEvent } from '#shared/domain/event';
import type { HeldLease } from '#shared/domain/ports';
import { taskSeconds } from '#shared/domain/usage';
import type { Task, TaskError } from '#shared/domain/task';
import { isDispatchable, isTerminal, isWaiting, transitionOf, type TaskRunner, type TaskStatus, type TaskTrigger } from '#shared/domain/task-state';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';

type Item = Record<string, NativeAttributeValue>;
export type { TransactItem };

/** A piece of an update or condition expression with its own placeholders. */
export interface ExpressionPart {
  expression: string;
  names?: Record<string, string>;
  values?: Item;
}

interface Writes {
  /** The events that record the write, put in the same transaction. */
  events: readonly ServiceEvent[];
  /** Further writes of the same transaction (an artifact, an approval): all or none apply. */
  items?: readonly TransactItem[];
}

/** A task write: its creation (`task` is the new task), or a trigger applied to the task as read. */
export type TaskTransitionRequest =
  | (Writes & { trigger: 'create'; task: Task })
  | (Writes & {
      trigger: TaskTrigger;
      /** With `started_at` when the task started: an ending counts the seconds since (usage). */
      task: Pick<Task, 'tenant_id' | 'task_id' | 'shape' | 'agent' | 'task_type' | 'created_at'> & Partial<Pick<Task, 'started_at' | 'session_id' | 'artifacts' | 'trigger' | 'runs_on' | 'priority'>>;
      /** Artifacts a run emitted that `task.artifacts` (as read before the run) does not list: an ending names them to the session. */
      emitted?: readonly string[];
      /** The write's time: the task's new `updated_at`. */
      at: string;
      /** Top-level attributes to set besides `status` and `updated_at`. */
      fields?: Item;
      /** Map entries to set besides the fields (an artifact summary, a decision). */
      update?: ExpressionPart;
      /** Conditions besides the source states (the call a step follows, the run a time-out judged). */
      condition?: ExpressionPart;
    });

/** The condition of a worker's write: the task runs under its lease (a lost or foreign one fails it). */
export function leaseHeld(lease: HeldLease): ExpressionPart {
  return { expression: 'lease_id = :heldLease', values: { ':heldLease': lease.leaseId } };
}

/** Several conditions that must all hold (their placeholders must not collide). */
export function allOf(...parts: ExpressionPart[]): ExpressionPart {
  return {
    expression: parts.map((part) => `(${part.expression})`).join(' AND '),
    names: Object.assign({}, ...parts.map((part) => part.names ?? {})),
    values: Object.assign({}, ...parts.map((part) => part.values ?? {})),
  };
}

/** The condition of an agent-context write: exactly `previous` calls were applied before it. */
export function followsStep(previous: number): ExpressionPart {
  return { expression: 'step = :previous', values: { ':previous': previous } };
}

/**
 * Every write of a task goes through here: the state machine (`transitionOf`) gives the states it
 * may leave from, which become its condition, and the state it leads to, which decides whether the
 * task keeps its keys of the active-task index. The task's write, its events and `items` are one
 * transaction, with the tenant's usage counters when it creates or ends the task (so they count
 * exactly the writes that won). Returns the task's new status, or undefined when a condition did not hold.
 */
export async function taskTransition(request: TaskTransitionRequest): Promise<TaskStatus | undefined> {
  const { from, to } = transitionOf(request.task.shape, request.trigger, runnerOf(request.task));
  // A trigger that applies to no task of this runner (a release of the runtime's task) holds from no state.
  if (request.trigger !== 'create' && from.length === 0) return undefined;
  const taskWrite = request.trigger === 'create' ? await creation(request.task) : update(request);
  try {
    const usage = usageOf(request, to);
    const session = sessionWritesOf(request, to);
    const events = [...request.events, ...session.events];
    await transactWrite([
      taskWrite,
      ...(request.items ?? []),
      ...claimQueueWritesOf(request),
      ...session.items,
      ...chatReplyWritesOf(request, to),
      ...(usage ? [usage] : []),
      ...(await Promise.all(events.map((event) => eventPut(event)))),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
  if (request.trigger !== 'create' && isTerminal(to)) countTerminal(request.task, to, request.at, request.fields?.error as TaskError | undefined);
  return to;
}

/**
 * The new task's put. A large input is put just before, on its own: no reader looks for it until
 * the task exists, and outside the transaction it is billed once per KB instead of twice. A
 * transaction that then fails leaves the input item without a task, which nothing reads.
 */
async function creation(task: Task): Promise<TransactItem> {
  const { to, dispatchable } = transitionOf(task.shape, 'create');
  if (task.status !== to) throw new Error(`A new ${task.shape}-shaped task starts ${to}, not ${task.status}.`);
  const { taskFields, inputItem } = splitTaskInput(task);
  if (inputItem) await documentClient().send(new PutCommand({ TableName: tableName(), Item: inputItem }));
  const item = {
    ...keys.task(task.tenant_id, task.task_id),
    ...keys.taskListing(task.tenant_id, task.task_id),
    ...keys.taskByAgentListing(task.tenant_id, task.agent, task.task_id),
    ...(dispatchable ? keys.activeTask(task.tenant_id, task.task_id) : {}),
    entity: 'task',
    ...taskFields,
  };
  return { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/**
 * A trigger's update. It writes only what can change: the status unless the trigger keeps it (a
 * step), the active-task keys when the task enters the index (so a step or a start never rewrites
 * them) and their removal when it leaves it.
 */
function update(request: Extract<TaskTransitionRequest, { at: string }>): TransactItem {
  const { task, trigger, at } = request;
  const { from, to, dispatchable } = transitionOf(task.shape, trigger, runnerOf(task));
  const names: Record<string, string> = { '#status': 'status', '#updatedAt': 'updated_at' };
  const values: Item = { ':at': at };
  const sets = ['#updatedAt = :at'];
  const removes: string[] = [];
  if (from.some((status) => status !== to)) {
    sets.unshift('#status = :to');
    values[':to'] = to;
  }
  for (const [name, value] of Object.entries(request.fields ?? {})) {
    if (value === undefined) continue;
    names[`#set_${name}`] = name;
    values[`:set_${name}`] = value;
    sets.push(`#set_${name} = :set_${name}`);
  }
  const entersIndex = dispatchable && !from.every(isDispatchable);
  if (entersIndex || !dispatchable) {
    names['#activePk'] = GSI3.partitionKey;
    names['#activeSk'] = GSI3.sortKey;
    if (entersIndex) {
      const active = keys.activeTask(task.tenant_id, task.task_id);
      Object.assign(values, { ':activePk': active[GSI3.partitionKey], ':activeSk': active[GSI3.sortKey] });
      sets.push('#activePk = :activePk', '#activeSk = :activeSk');
    } else {
      removes.push('#activePk', '#activeSk');
    }
  }
  const sources = from.map((status, index) => {
    values[`:from${index}`] = status;
    return `:from${index}`;
  });
  const conditions = [`#status IN (${sources.join(', ')})`];
  for (const part of [request.update, request.condition]) {
    if (!part) continue;
    (part === request.update ? sets : conditions).push(part.expression);
    mergeOwn(names, part.names);
    mergeOwn(values, part.values);
  }
  return {
    Update: {
      TableName: tableName(),
      Key: keys.task(task.tenant_id, task.task_id),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

const runnerOf = (task: Pick<Task, 'runs_on'>): TaskRunner => task.runs_on ?? 'runtime';

/**
 * A custom agent's task enters its agent's claim queue when it starts waiting (created, released,
 * resumed after a decision) and leaves it when the wait ends (claimed, cancelled, rejected): in the
 * same transaction, so the queue holds exactly the waiting tasks (entities/task.ts).
 */
function claimQueueWritesOf(request: TaskTransitionRequest): TransactItem[] {
  const { task } = request;
  if (task.runs_on !== 'worker') return [];
  if (!task.priority) throw new Error(`Task ${task.task_id} runs on workers; its transition needs its priority (the claim queue's key).`);
  const { from, to } = transitionOf(task.shape, request.trigger, 'worker');
  const key = keys.claimQueueEntry(task.tenant_id, task.agent, task.priority, task.task_id);
  const waits = isWaiting(to);
  const waited = from.some(isWaiting);
  if (waits && !waited) return [{ Put: { TableName: tableName(), Item: { ...key, entity: 'claim_queue_entry', tenant_id: task.tenant_id, task_id: task.task_id, priority: task.priority } } }];
  if (waited && !waits) return [{ Delete: { TableName: tableName(), Key: key } }];
  return [];
}

/** Adds a caller's placeholders; one that would shadow the transition's own is a programming error. */
function mergeOwn<T>(into: Record<string, T>, from: Record<string, T> | undefined): void {
  for (const [placeholder, value] of Object.entries(from ?? {})) {
    if (placeholder in into) throw new Error(`Placeholder ${placeholder} is taken by the task transition.`);
    into[placeholder] = value;
  }
}

/** The task's status and step as stored now (strongly consistent), to explain a refused write. */
export async function storedTaskState(task: Pick<Task, 'tenant_id' | 'task_id'>): Promise<Pick<Task, 'status' | 'step'> | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.task(task.tenant_id, task.task_id),
      ConsistentRead: true,
      ProjectionExpression: '#status, step',
      ExpressionAttributeNames: { '#status': 'status' },
    }),
  );
  return Item as Pick<Task, 'status' | 'step'> | undefined;
}

/**
 * A task of a session: its creation counts in the session (only while it is open and of the
 * task's agent), its ending adds the agent's message; both in the task's own transaction. A task
 * a trigger started is referenced in the trigger's partition (`GET /tasks?trigger_id=`).
 */
function sessionWritesOf(request: TaskTransitionRequest, to: TaskStatus): { items: TransactItem[]; events: ServiceEvent[] } {
  const { task } = request;
  const sessionId = task.session_id;
  if (request.trigger === 'create') {
    const origin = request.task.trigger && 'trigger_id' in request.task.trigger ? [originReference(request.task.tenant_id, { kind: 'TRIGGER', id: request.task.trigger.trigger_id }, request.task.task_id)] : [];
    return { items: [...(sessionId ? sessionTaskCreation({ ...request.task, session_id: sessionId }) : []), ...origin], events: [] };
  }
  // A task without `trigger` predates sessions: its `session_id` was a free-form label, no session.
  if (!sessionId || !task.trigger) return { items: [], events: [] };
  if (!isTerminal(to)) return { items: [], events: [] };
  // A cancelled task's artifacts are discarded: the message names none.
  const artifactIds = to === 'cancelled' ? [] : [...new Set([...Object.keys(task.artifacts ?? {}), ...(request.emitted ?? [])])].sort();
  return agentMessageWrites({ ...task, session_id: sessionId }, to, artifactIds, request.at, request.fields?.error as TaskError | undefined);
}

/** A chat-started task's ending, to post in the thread of the message that started it (entities/chat.ts). */
function chatReplyWritesOf(request: TaskTransitionRequest, to: TaskStatus): TransactItem[] {
  const source = request.task.trigger;
  if (request.trigger === 'create' || !isTerminal(to) || source?.type !== 'chat') return [];
  const { tenant_id, task_id, agent, task_type } = request.task;
  const error = request.fields?.error as TaskError | undefined;
  const item = {
    ...keys.chatReply(tenant_id, task_id),
    entity: 'chat_reply',
    tenant_id,
    task_id,
    agent,
    task_type,
    trigger_id: source.trigger_id,
    integration_id: source.integration_id,
    channel: source.channel,
    thread_ts: source.ts,
    status: to,
    ended_at: request.at,
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
  };
  return [{ Put: { TableName: tableName(), Item: item } }];
}

/** The usage a creation or an ending adds (in the month of the write), or none for other triggers. */
function usageOf(request: TaskTransitionRequest, to: TaskStatus): TransactItem | undefined {
  const { task } = request;
  const byTaskType = { agent: task.agent, task_type: task.task_type };
  if (request.trigger === 'create') {
    return usageUpdate({ tenantId: task.tenant_id, at: task.created_at, shardBy: task.task_id, counts: { tasks_created: 1 }, byTaskType: { ...byTaskType, counts: { tasks_created: 1 } } });
  }
  if (!isTerminal(to)) return undefined;
  const seconds = taskSeconds(task.started_at, request.at);
  const ended = to === 'complete' ? 'tasks_completed' : to === 'failed' ? 'tasks_failed' : 'tasks_cancelled';
  return usageUpdate({
    tenantId: task.tenant_id,
    at: request.at,
    shardBy: task.task_id,
    counts: { [ended]: 1, task_seconds: seconds },
    byTaskType: { ...byTaskType, counts: { tasks_completed: to === 'complete' ? 1 : 0, task_seconds: seconds } },
  });
}

/**
 * Counts a task's terminal transition, here where it is applied exactly once (the conditional
 * write that won), whichever path ended it: the worker, a cancel, the sweeper.
 */
function countTerminal(task: Pick<Task, 'tenant_id' | 'task_id' | 'agent' | 'task_type' | 'created_at'>, status: TaskStatus, at: string, error?: TaskError): void {
  const breakdown = { agent: task.agent, task_type: task.task_type };
  recordMetric(status === 'complete' ? 'tasksCompleted' : status === 'failed' ? 'tasksFailed' : 'tasksCancelled', 1, breakdown);
  recordMetric('taskDuration', Math.max(0, Date.parse(at) - Date.parse(task.created_at)), breakdown);
  logger.info('task ended', { tenant_id: task.tenant_id, task_id: task.task_id, status, agent: task.agent, task_type: task.task_type, ...(error ? { error_code: error.code } : {}) });
}
