import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '#shared/adapters/sqs/client';
import { TOOL_CALL_QUEUE } from '#shared/config/topology';
import { getStringFromEnv } from '#shared/config/env';
import { messageBody } from '#shared/adapters/sqs/message-body';

/** Hands an approved action to the tool proxy. */
export async function dispatchToolCall(call: { tenant_id: string; approval_id: string }): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(TOOL_CALL_QUEUE.urlEnv), MessageBody: messageBody({ tenant_id: call.tenant_id, approval_id: call.approval_id }) }));
}
