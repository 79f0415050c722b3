import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { fanOutEvent } from '#shared/services/webhook-fan-out';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/**
 * The table's stream consumer (filtered to inserted event items): each new event fans out to
 * the webhooks subscribed to it. A failure is reported per record, so the stream retries from it.
 */
async function fanOut(record: DynamoDBRecord): Promise<void> {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return;
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (item.entity !== 'event') return;
  const serviceEvent = stripKeys<ServiceEvent>(item);
  // No request caused a stream record; the event id correlates the fan-out with its deliveries.
  const ids = { tenant_id: serviceEvent.tenant_id, task_id: serviceEvent.task_id, event_id: serviceEvent.event_id, event_type: serviceEvent.type, correlation_id: serviceEvent.event_id };
  await observeRecord(ids, async () => {
    const queued = await fanOutEvent(serviceEvent);
    // Most events have no subscriber; a line for each would be most of a task's log bytes (cost).
    if (queued > 0) logger.info('event fanned out', { deliveries_queued: queued });
    else logger.debug('event fanned out', { deliveries_queued: 0 });
  });
}

export const handler = observedHandler(async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => processPartialResponse(event, fanOut, processor, { context }));
