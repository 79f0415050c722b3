import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from '#shared/zod';
import { retrySoon } from '#shared/adapters/sqs/retry-soon';
import { parseMessageBody } from '#shared/adapters/sqs/message-body';
import type { ToolProxyRequest } from '#shared/domain/tool-proxy';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { executeToolCall } from '#shared/services/tool-calls';
import { callReadTool } from '#shared/services/tool-execution';
import { testIntegration } from '#shared/services/integration-test';
import { answerSlackRequest } from '#shared/services/slack-requests';
import { syncApprovalMessages } from '#shared/services/slack-approvals';
import { postChatReply } from '#shared/services/chat-triggers';

const processor = new BatchProcessor(EventType.SQS);
const id = () => z.string().check(z.minLength(1));
/** An approved action to execute, or a chat notice to post (tool-call-dispatcher.ts). */
const toolProxyMessage = z.union([
  z.strictObject({ tenant_id: id(), approval_id: id() }),
  z.strictObject({ notice: z.literal('approval'), tenant_id: id(), approval_id: id() }),
  z.strictObject({ notice: z.literal('chat_reply'), tenant_id: id(), task_id: id() }),
]);

async function runRecord(record: SQSRecord): Promise<void> {
  const message = parseMessageBody(record, toolProxyMessage, 'tool-proxy');
  if (!message) return;
  await observeRecord({ message_id: record.messageId, ...message }, () => {
    if (!('notice' in message)) return executeToolCall(message.tenant_id, message.approval_id);
    if (message.notice === 'approval') return syncApprovalMessages(message.tenant_id, message.approval_id);
    return postChatReply(message.tenant_id, message.task_id);
  });
}

/** A synchronous invoke (run-task, the integration routes, Slack's endpoints): one request, its answer. */
function answer(request: ToolProxyRequest): Promise<unknown> {
  switch (request.action) {
    case 'call_tool':
      return callReadTool(request);
    case 'test_integration':
      return testIntegration(request.tenant_id, request.integration_id);
    case 'slack_request':
      return answerSlackRequest(request);
  }
}

/**
 * The tool proxy: the only function that can decrypt integration credentials (and send mail).
 * Its queue brings approved actions, executed once each; direct invocations bring read tool calls,
 * integration tests and Slack's signed requests.
 */
export const handler = observedHandler(async (event: SQSEvent | ToolProxyRequest, context: Context): Promise<SQSBatchResponse | unknown> => {
  if ('Records' in event) return processPartialResponse(event, retrySoon(runRecord), processor, { context });
  return answer(event);
});
