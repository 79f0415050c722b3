import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { executeToolCall } from '#shared/services/approvals';

const processor = new BatchProcessor(EventType.SQS);
const toolCallMessage = z.object({ tenant_id: z.string().min(1), approval_id: z.string().min(1) }).strict();

/** The tool proxy: the only function that may send mail. Executes approved actions, once each. */
async function runRecord(record: SQSRecord): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const parsed = toolCallMessage.safeParse(body);
  if (!parsed.success) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'malformed tool call message dropped', messageId: record.messageId }));
    return;
  }
  await executeToolCall(parsed.data.tenant_id, parsed.data.approval_id);
}

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => processPartialResponse(event, runRecord, processor, { context });
