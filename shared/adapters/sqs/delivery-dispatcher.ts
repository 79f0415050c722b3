import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '#shared/adapters/sqs/client';
import { getStringFromEnv } from '#shared/config/env';
import { WEBHOOK_DELIVERY_QUEUE } from '#shared/config/topology';
import { messageBody } from '#shared/adapters/sqs/message-body';

export interface DeliveryMessage {
  tenant_id: string;
  webhook_id: string;
  event_id: string;
  attempt: number;
}

/** SQS's longest message delay. */
const MAX_DELAY_SECONDS = 900;
/** SQS's most entries per SendMessageBatch. */
const BATCH_ENTRIES = 10;

const sqsDelay = (seconds: number) => Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.round(seconds)));

/** Queues one delivery attempt, after `delaySeconds` (SQS allows at most 900). */
export async function dispatchDelivery(message: DeliveryMessage, delaySeconds = 0): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(WEBHOOK_DELIVERY_QUEUE.urlEnv), MessageBody: messageBody(message), DelaySeconds: sqsDelay(delaySeconds) }));
}

/** An attempt to queue, its body serialised where it was decided (with that work's correlation id). */
export interface DeliveryEntry {
  body: string;
  delaySeconds: number;
}

export function deliveryEntry(message: DeliveryMessage, delaySeconds = 0): DeliveryEntry {
  return { body: messageBody(message), delaySeconds };
}

/**
 * Queues many attempts, ten to a request (a fan-out batch queues one per event and subscription).
 * Returns the entries that were not queued, whether SQS refused them or the request failed, so
 * that the caller can retry exactly those.
 */
export async function dispatchDeliveries(entries: readonly DeliveryEntry[]): Promise<DeliveryEntry[]> {
  const failed: DeliveryEntry[] = [];
  const chunks = Array.from({ length: Math.ceil(entries.length / BATCH_ENTRIES) }, (_, index) => entries.slice(index * BATCH_ENTRIES, (index + 1) * BATCH_ENTRIES));
  await Promise.all(
    chunks.map(async (chunk) => {
      try {
        const { Failed } = await sqsClient().send(
          new SendMessageBatchCommand({
            QueueUrl: getStringFromEnv(WEBHOOK_DELIVERY_QUEUE.urlEnv),
            Entries: chunk.map((entry, index) => ({ Id: String(index), MessageBody: entry.body, DelaySeconds: sqsDelay(entry.delaySeconds) })),
          }),
        );
        for (const refused of Failed ?? []) failed.push(chunk[Number(refused.Id)]);
      } catch {
        failed.push(...chunk);
      }
    }),
  );
  return failed;
}

/** Dead-letters a delivery whose retries are exhausted, so operators see it in the DLQ too. */
export async function deadLetterDelivery(message: DeliveryMessage): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(WEBHOOK_DELIVERY_QUEUE.deadLetterUrlEnv!), MessageBody: messageBody({ ...message, reason: 'retries_exhausted' }) }));
}
