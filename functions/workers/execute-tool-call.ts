import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from '#shared/zod';
import { retrySoon } from '#shared/adapters/sqs/retry-soon';
import { parseMessageBody } from '#shared/adapters/sqs/message-body';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { executeToolCall } from '#shared/services/tool-calls';

const processor = new BatchProcessor(EventType.SQS);
const toolCallMessage = z.strictObject({ tenant_id: z.string().check(z.minLength(1)), approval_id: z.string().check(z.minLength(1)) });

/** The tool proxy: the only function that may send mail. Executes approved actions, once each. */
async function runRecord(record: SQSRecord): Promise<void> {
  const message = parseMessageBody(record, toolCallMessage, 'tool-proxy');
  if (!message) return;
  await observeRecord({ message_id: record.messageId, ...message }, () => executeToolCall(message.tenant_id, message.approval_id));
}

export const handler = observedHandler(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => processPartialResponse(event, retrySoon(runRecord), processor, { context }));
