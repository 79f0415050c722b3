import { defineEntity, indexKey, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

/** The partition of a session or a trigger: it holds the references to the tasks it started. */
export type TaskOrigin = { kind: 'SESSION' | 'TRIGGER'; id: string };
const originPartition = (tenantId: string, origin: TaskOrigin) => `${tenant(tenantId)}#${origin.kind}#${origin.id}`;
const sessionPartition = (tenantId: string, sessionId: string) => originPartition(tenantId, { kind: 'SESSION', id: sessionId });
const sessionsPartition = (tenantId: string) => `${tenant(tenantId)}#SESSIONS`;

/**
 * A session, listed per tenant newest first. Its partition also holds its messages (sorted by
 * id: oldest first) and one reference per task started in it, so a session's transcript and its
 * tasks are each one query of one partition.
 */
export const sessionEntity = defineEntity({
  entity: 'session',
  tenantScoped: true,
  keys: {
    session: (tenantId: string, sessionId: string): Key => ({ pk: sessionPartition(tenantId, sessionId), sk: 'SESSION' }),
    sessionListing: (tenantId: string, sessionId: string) => indexKey('gsi1', sessionsPartition(tenantId), sessionId),
    sessionsPartition,
    sessionPartition,
  },
  primaryKey: 'session',
  indexes: [{ index: 'gsi1', key: 'sessionListing', copies: 'ALL' }],
});

/** A message of a session (a person's or the agent's); immutable. */
export const sessionMessageEntity = defineEntity({
  entity: 'session_message',
  tenantScoped: true,
  keys: {
    sessionMessage: (tenantId: string, sessionId: string, messageId: string): Key => ({ pk: sessionPartition(tenantId, sessionId), sk: `MSG#${messageId}` }),
  },
  primaryKey: 'sessionMessage',
  indexes: [],
});

/**
 * That a task was started by a session or a trigger: one small item in the origin's partition,
 * written in the task's creation transaction, so `GET /tasks?session_id=` (or `trigger_id=`)
 * queries that partition newest first and reads the tasks it names.
 */
export const taskOriginEntity = defineEntity({
  entity: 'task_origin',
  tenantScoped: true,
  keys: {
    taskOfOrigin: (tenantId: string, origin: TaskOrigin, taskId: string): Key => ({ pk: originPartition(tenantId, origin), sk: `TASK#${taskId}` }),
    originPartition,
  },
  primaryKey: 'taskOfOrigin',
  indexes: [],
});
