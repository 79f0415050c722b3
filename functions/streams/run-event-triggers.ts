import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { fireEventTriggers } from '#shared/services/event-trigger-runs';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/**
 * The event triggers' consumer of the table's stream, filtered to inserted `artifact.emitted`
 * events: each starts the tasks of the triggers waiting for its artifact type. Records are handled
 * one after another and each reports its own outcome, so the stream retries from the first that
 * failed; a retried record finds its runs claimed and starts nothing twice.
 */
export const handler = observedHandler(async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
  const report = async (record: DynamoDBRecord): Promise<void> => {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) return;
    const item = unmarshall(image as Record<string, AttributeValue>);
    if (item.entity !== 'event' || item.type !== 'artifact.emitted') return;
    const serviceEvent = stripKeys<ServiceEvent>(item);
    const ids = { tenant_id: serviceEvent.tenant_id, task_id: serviceEvent.task_id, event_id: serviceEvent.event_id, event_type: serviceEvent.type, correlation_id: serviceEvent.event_id };
    await observeRecord(ids, async () => {
      const runs = await fireEventTriggers(serviceEvent);
      if (runs.length > 0) logger.info('event triggers ran', { runs: runs.map((run) => ({ trigger_id: run.trigger_id, run_id: run.run_id, outcome: run.outcome, task_id: run.task_id })) });
    });
  };
  return processPartialResponse(event, report, processor, { context, processInParallel: false });
});
