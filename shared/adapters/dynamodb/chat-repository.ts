import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';

/** An approval's message in a Slack channel; `ts` is set once it is posted. */
export interface ApprovalChatMessage {
  approval_id: string;
  integration_id: string;
  channel: string;
  ts?: string;
  claimed_at: string;
}

/** A chat-started task's outcome waiting for (or past) its post in the thread (entities/chat.ts). */
export interface ChatReply {
  tenant_id: string;
  task_id: string;
  agent: string;
  task_type: string;
  trigger_id: string;
  integration_id: string;
  channel: string;
  thread_ts: string;
  status: 'complete' | 'failed' | 'cancelled';
  ended_at: string;
  error?: { code: string; message: string };
  posted_at?: string;
  posted_ts?: string;
}

/** The chat records of approvals and chat-started tasks. */
export class DynamoChatRepository {
  private get client() {
    return documentClient();
  }

  async approvalMessage(tenantId: string, approvalId: string, integrationId: string): Promise<ApprovalChatMessage | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.approvalChatMessage(tenantId, approvalId, integrationId), ConsistentRead: true }));
    return Item ? stripKeys<ApprovalChatMessage>(Item) : undefined;
  }

  /**
   * Claims the right to post an approval's message once; false when another handler holds the
   * claim. A claim older than `staleBefore` without a posted message (its holder died) is taken over.
   */
  async claimApprovalMessage(tenantId: string, message: ApprovalChatMessage, staleBefore: string): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.approvalChatMessage(tenantId, message.approval_id, message.integration_id), entity: 'approval_chat_message', tenant_id: tenantId, ...message },
          ConditionExpression: 'attribute_not_exists(pk) OR (attribute_not_exists(ts) AND claimed_at < :stale)',
          ExpressionAttributeValues: { ':stale': staleBefore },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async setApprovalMessageTs(tenantId: string, approvalId: string, integrationId: string, ts: string): Promise<void> {
    await this.client.send(new UpdateCommand({ TableName: tableName(), Key: keys.approvalChatMessage(tenantId, approvalId, integrationId), UpdateExpression: 'SET ts = :ts', ExpressionAttributeValues: { ':ts': ts } }));
  }

  /** Forgets a claim whose post failed, so the next notice posts again. */
  async releaseApprovalMessage(tenantId: string, approvalId: string, integrationId: string): Promise<void> {
    try {
      await this.client.send(new DeleteCommand({ TableName: tableName(), Key: keys.approvalChatMessage(tenantId, approvalId, integrationId), ConditionExpression: 'attribute_not_exists(ts)' }));
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async chatReply(tenantId: string, taskId: string): Promise<ChatReply | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.chatReply(tenantId, taskId), ConsistentRead: true }));
    return Item ? stripKeys<ChatReply>(Item) : undefined;
  }

  /** Records the reply's post; false when it was already recorded (a redelivered notice). */
  async markReplyPosted(tenantId: string, taskId: string, ts: string, at: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({ TableName: tableName(), Key: keys.chatReply(tenantId, taskId), UpdateExpression: 'SET posted_at = :at, posted_ts = :ts', ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(posted_at)', ExpressionAttributeValues: { ':at': at, ':ts': ts } }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

export const chatRepository = new DynamoChatRepository();
