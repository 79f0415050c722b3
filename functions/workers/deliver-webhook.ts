import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { attemptDelivery } from '#shared/services/webhook-delivery';

const processor = new BatchProcessor(EventType.SQS);
const deliveryMessage = z.object({ tenant_id: z.string().min(1), webhook_id: z.string().min(1), event_id: z.string().min(1), attempt: z.number().int().min(1) }).strict();

/** One delivery attempt per message; retries are new delayed messages, not redeliveries. */
async function runRecord(record: SQSRecord): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const parsed = deliveryMessage.safeParse(body);
  if (!parsed.success) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'malformed delivery message dropped', messageId: record.messageId }));
    return;
  }
  await attemptDelivery(parsed.data);
}

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => processPartialResponse(event, runRecord, processor, { context });
