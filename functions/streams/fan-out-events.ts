import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
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
  await fanOutEvent(stripKeys<ServiceEvent>(item));
}

export const handler = async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => processPartialResponse(event, fanOut, processor, { context });
