import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from '#shared/zod';
import { retrySoon } from '#shared/adapters/sqs/retry-soon';
import { parseMessageBody } from '#shared/adapters/sqs/message-body';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { attemptDelivery } from '#shared/services/webhook-delivery';

const processor = new BatchProcessor(EventType.SQS);
const deliveryMessage = z.strictObject({ tenant_id: z.string().check(z.minLength(1)), webhook_id: z.string().check(z.minLength(1)), event_id: z.string().check(z.minLength(1)), attempt: z.number().check(z.int(), z.minimum(1)) });

/**
 * One delivery attempt per message, followed by the attempts it releases while the invocation has
 * time; retries are new delayed messages, not redeliveries.
 */
function runRecord(context: Context): (record: SQSRecord) => Promise<void> {
  return async (record) => {
    const message = parseMessageBody(record, deliveryMessage, 'webhook-deliverer');
    if (!message) return;
    await observeRecord({ message_id: record.messageId, ...message }, () => attemptDelivery(message, { remainingMs: () => context.getRemainingTimeInMillis() }));
  };
}

export const handler = observedHandler(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => processPartialResponse(event, retrySoon(runRecord(context)), processor, { context }));
