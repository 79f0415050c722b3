import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { fanOutEvents, type FanOutOutcome } from '#shared/services/webhook-fan-out';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/** The inserted event a record carries, if it is one. */
function eventOf(record: DynamoDBRecord): ServiceEvent | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>);
  return item.entity === 'event' ? stripKeys<ServiceEvent>(item) : undefined;
}

/**
 * The table's stream consumer (filtered to inserted event items): the batch's new events fan out
 * to the webhooks subscribed to them, together (a task's events share their reads and their
 * ordering), and each record then reports its own outcome, so the stream retries from the first
 * one that failed.
 */
export const handler = observedHandler(async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
  const events = event.Records.map(eventOf);
  const outcomes = fanOutEvents(events.filter((serviceEvent) => serviceEvent !== undefined));
  // One rejection surfaces through every record below; this keeps it from being unhandled meanwhile.
  outcomes.catch(() => undefined);
  const report = async (record: DynamoDBRecord): Promise<void> => {
    const serviceEvent = eventOf(record);
    if (!serviceEvent) return;
    // No request caused a stream record; the event id correlates the fan-out with its deliveries.
    const ids = { tenant_id: serviceEvent.tenant_id, task_id: serviceEvent.task_id, event_id: serviceEvent.event_id, event_type: serviceEvent.type, correlation_id: serviceEvent.event_id };
    await observeRecord(ids, async () => {
      const outcome: FanOutOutcome | undefined = (await outcomes).get(serviceEvent.event_id);
      if (outcome && 'error' in outcome) throw outcome.error;
      const queued = outcome?.queued ?? 0;
      // Most events have no subscriber; a line for each would be most of a task's log bytes (cost).
      if (queued > 0) logger.info('event fanned out', { deliveries_queued: queued });
      else logger.debug('event fanned out', { deliveries_queued: 0 });
    });
  };
  return processPartialResponse(event, report, processor, { context });
});
