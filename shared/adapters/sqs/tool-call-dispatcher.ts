import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '#shared/adapters/sqs/client';
import { TOOL_CALL_QUEUE } from '#shared/config/topology';
import { getStringFromEnv } from '#shared/config/env';
import { messageBody } from '#shared/adapters/sqs/message-body';

/** Hands an approved action to the tool proxy. */
export async function dispatchToolCall(call: { tenant_id: string; approval_id: string }): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(TOOL_CALL_QUEUE.urlEnv), MessageBody: messageBody({ tenant_id: call.tenant_id, approval_id: call.approval_id }) }));
}

/** What the tool proxy posts to team chat: an approval's message (posted or brought up to date), or a chat task's outcome. */
export type ChatNotice = { notice: 'approval'; tenant_id: string; approval_id: string } | { notice: 'chat_reply'; tenant_id: string; task_id: string };

/** Hands a chat notice to the tool proxy (the only function holding the bot token). */
export async function dispatchChatNotice(notice: ChatNotice): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(TOOL_CALL_QUEUE.urlEnv), MessageBody: messageBody(notice) }));
}
