import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import type { TaskOrigin } from '#shared/adapters/dynamodb/entities/session';
import { keys } from '#shared/adapters/dynamodb/keys';
import { queryAll, queryPage } from '#shared/adapters/dynamodb/paged-query';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { transactWrite, type TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { Clock } from '#shared/domain/clock';
import type { ServiceEvent } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import { agentMessageContent, type Session, type SessionMessage, type SessionStatus } from '#shared/domain/session';
import type { Task, TaskError } from '#shared/domain/task';
import type { TaskStatus } from '#shared/domain/task-state';

type Item = Record<string, NativeAttributeValue>;

export interface SessionListQuery {
  agent?: string;
  status?: SessionStatus;
  limit: number;
  cursor?: string;
}

/** The `session.message` event of a message: written in the message's transaction. */
export function sessionMessageEvent(tenantId: string, message: SessionMessage, agent: string): ServiceEvent {
  return {
    event_id: newId('evt', Date.parse(message.created_at)),
    type: 'session.message',
    created_at: message.created_at,
    tenant_id: tenantId,
    agent,
    data: { session_id: message.session_id, message_id: message.message_id, role: message.role, ...(message.task_id ? { task_id: message.task_id } : {}) },
  };
}

/** A message as stored, without the tenant its item carries. */
function storedMessage({ tenant_id, ...message }: SessionMessage & { tenant_id?: string }): SessionMessage {
  void tenant_id;
  return message;
}

function messagePut(tenantId: string, message: SessionMessage): TransactItem {
  return { Put: { TableName: tableName(), Item: { ...keys.sessionMessage(tenantId, message.session_id, message.message_id), entity: 'session_message', tenant_id: tenantId, ...message }, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** The reference that lists a task under the session or trigger that started it (entities/session.ts). */
export function originReference(tenantId: string, origin: TaskOrigin, taskId: string): TransactItem {
  return { Put: { TableName: tableName(), Item: { ...keys.taskOfOrigin(tenantId, origin, taskId), entity: 'task_origin', task_id: taskId } } };
}

/**
 * What a task started in a session adds to its creation transaction: the session counts it and
 * records the activity, only while the session is open and of the task's agent (a racing close
 * or a foreign agent makes the whole creation fail), and the reference that lists it.
 */
export function sessionTaskCreation(task: Pick<Task, 'tenant_id' | 'task_id' | 'agent' | 'created_at'> & { session_id: string }): TransactItem[] {
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.session(task.tenant_id, task.session_id),
        UpdateExpression: 'SET task_count = task_count + :one, last_activity_at = :at',
        ConditionExpression: 'attribute_exists(pk) AND #status = :open AND #agent = :agent',
        ExpressionAttributeNames: { '#status': 'status', '#agent': 'agent' },
        ExpressionAttributeValues: { ':one': 1, ':at': task.created_at, ':open': 'open', ':agent': task.agent },
      },
    },
    originReference(task.tenant_id, { kind: 'SESSION', id: task.session_id }, task.task_id),
  ];
}

/** A person's message that starts a task: it joins the task's creation transaction. */
export function userMessageWrites(tenantId: string, message: SessionMessage, agent: string): { items: TransactItem[]; events: ServiceEvent[] } {
  return { items: [messagePut(tenantId, message)], events: [sessionMessageEvent(tenantId, message, agent)] };
}

/**
 * The agent's message when a task of the session ends, for the ending's own transaction: written
 * exactly when the ending is (whichever path ends it), so it is never missing nor doubled. It is
 * added even if the session closed meanwhile: it records how work begun in the session ended.
 * It leaves the session item alone (an ending must never fail on it); the idle close counts the
 * latest message as activity instead (`lastMessageAt`).
 */
export function agentMessageWrites(
  task: Pick<Task, 'tenant_id' | 'task_id' | 'task_type' | 'agent'> & { session_id: string },
  outcome: TaskStatus,
  artifactIds: readonly string[],
  at: string,
  error?: TaskError,
): { items: TransactItem[]; events: ServiceEvent[] } {
  const message: SessionMessage = {
    message_id: newId('msg', Date.parse(at)),
    session_id: task.session_id,
    role: 'agent',
    content: agentMessageContent(task, outcome, artifactIds, error),
    created_at: at,
    task_id: task.task_id,
    outcome,
    artifact_ids: [...artifactIds],
  };
  return { items: [messagePut(task.tenant_id, message)], events: [sessionMessageEvent(task.tenant_id, message, task.agent)] };
}

/** Sessions and their messages in the single table (entities/session.ts). */
export class DynamoSessionRepository {
  private get client() {
    return documentClient();
  }

  async create(session: Session): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.session(session.tenant_id, session.session_id), ...keys.sessionListing(session.tenant_id, session.session_id), entity: 'session', ...session },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(tenantId: string, sessionId: string): Promise<Session | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.session(tenantId, sessionId), ConsistentRead: true }));
    return Item ? stripKeys<Session>(Item) : undefined;
  }

  /** Newest first, filtered by agent and status (paged until the page is full). */
  async list(tenantId: string, query: SessionListQuery): Promise<{ sessions: Session[]; nextCursor: string | null }> {
    const partition = keys.sessionsPartition(tenantId);
    const scope = `sessions|${partition}|${query.agent ?? ''}|${query.status ?? ''}`;
    const startKey = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: GSI1.partitionKey, partition });
    const names: Record<string, string> = { '#pk': GSI1.partitionKey };
    const values: Item = { ':pk': partition };
    const filters: string[] = [];
    if (query.agent) {
      names['#agent'] = 'agent';
      values[':agent'] = query.agent;
      filters.push('#agent = :agent');
    }
    if (query.status) {
      names['#status'] = 'status';
      values[':status'] = query.status;
      filters.push('#status = :status');
    }
    const page = await queryPage<Session>(
      {
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ScanIndexForward: false,
      },
      query.limit,
      startKey,
    );
    return { sessions: page.items, nextCursor: await encodeCursor(tenantId, scope, page.lastKey) };
  }

  /** A session's messages, oldest first. */
  async listMessages(tenantId: string, sessionId: string, limit: number, cursor?: string): Promise<{ messages: SessionMessage[]; nextCursor: string | null }> {
    const partition = keys.sessionPartition(tenantId, sessionId);
    const scope = `messages|${partition}`;
    const startKey = await decodeCursor(tenantId, scope, cursor, { partitionAttribute: 'pk', partition });
    const page = await queryPage<SessionMessage & { tenant_id?: string }>(
      {
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
        ExpressionAttributeValues: { ':pk': partition, ':msg': 'MSG#' },
      },
      limit,
      startKey,
    );
    return { messages: page.items.map(storedMessage), nextCursor: await encodeCursor(tenantId, scope, page.lastKey) };
  }

  /** Every message of the session created before `before` (what a task of the session sees), oldest first. */
  async messagesBefore(tenantId: string, sessionId: string, before: string): Promise<SessionMessage[]> {
    const messages = await queryAll<SessionMessage & { tenant_id?: string }>({
      TableName: tableName(),
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
      ExpressionAttributeValues: { ':pk': keys.sessionPartition(tenantId, sessionId), ':msg': 'MSG#' },
    });
    return messages.filter((message) => message.created_at < before).map(storedMessage);
  }

  /** When the session's latest message was written, if any: activity the session item may not record. */
  async lastMessageAt(tenantId: string, sessionId: string): Promise<string | undefined> {
    const page = await queryPage<SessionMessage>(
      {
        TableName: tableName(),
        ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
        ExpressionAttributeValues: { ':pk': keys.sessionPartition(tenantId, sessionId), ':msg': 'MSG#' },
        ScanIndexForward: false,
      },
      1,
      undefined,
    );
    return page.items[0]?.created_at;
  }

  /** A person's message without a task: the message, its event and the session's activity, if it is open. */
  async addMessage(tenantId: string, session: Session, message: SessionMessage): Promise<boolean> {
    try {
      await transactWrite([
        messagePut(tenantId, message),
        {
          Update: {
            TableName: tableName(),
            Key: keys.session(tenantId, session.session_id),
            UpdateExpression: 'SET last_activity_at = :at',
            ConditionExpression: '#status = :open',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':at': message.created_at, ':open': 'open' },
          },
        },
        await eventPut(sessionMessageEvent(tenantId, message, session.agent)),
      ]);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Closes an open session with its `session.closed` event; false when it was not open (or, with
   * `idleSince`, when activity since made it no longer idle).
   */
  async close(session: Session, reason: string, at: string, clock: Clock, idleSince?: string): Promise<boolean> {
    const event: ServiceEvent = {
      event_id: newId('evt', clock.now().getTime()),
      type: 'session.closed',
      created_at: at,
      tenant_id: session.tenant_id,
      agent: session.agent,
      data: { session_id: session.session_id, reason },
    };
    const values: Item = { ':closed': 'closed', ':open': 'open', ':at': at, ':reason': reason };
    if (idleSince) values[':seen'] = idleSince;
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.session(session.tenant_id, session.session_id),
            UpdateExpression: 'SET #status = :closed, closed_at = :at, close_reason = :reason',
            ConditionExpression: `#status = :open${idleSince ? ' AND last_activity_at = :seen' : ''}`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: values,
          },
        },
        await eventPut(event),
      ]);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

export const sessionRepository = new DynamoSessionRepository();
