import { defineEntity, type Key } from '#shared/adapters/dynamodb/entities/entity';
import { approvalEntity } from '#shared/adapters/dynamodb/entities/approval';
import { taskEntity } from '#shared/adapters/dynamodb/entities/task';

/** Where an approval was posted in a Slack channel (one per slack integration): its updates edit that message. */
export const approvalChatMessageEntity = defineEntity({
  entity: 'approval_chat_message',
  tenantScoped: true,
  keys: {
    approvalChatMessage: (tenantId: string, approvalId: string, integrationId: string): Key => ({ pk: approvalEntity.keys.approval(tenantId, approvalId).pk, sk: `CHAT#${integrationId}` }),
  },
  primaryKey: 'approvalChatMessage',
  indexes: [],
});

/**
 * The outcome of a chat-started task, to post in its thread: written in the transaction that ends
 * the task (an outbox), so no ending is lost; the table's stream brings it to the tool proxy.
 */
export const chatReplyEntity = defineEntity({
  entity: 'chat_reply',
  tenantScoped: true,
  keys: {
    chatReply: (tenantId: string, taskId: string): Key => ({ pk: taskEntity.keys.task(tenantId, taskId).pk, sk: 'CHAT_REPLY' }),
  },
  primaryKey: 'chatReply',
  indexes: [],
});
