import { SendMessageCommand } from '@aws-sdk/client-sqs';
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

/** Queues one delivery attempt, after `delaySeconds` (SQS allows at most 900). */
export async function dispatchDelivery(message: DeliveryMessage, delaySeconds = 0): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: getStringFromEnv(WEBHOOK_DELIVERY_QUEUE.urlEnv),
      MessageBody: messageBody(message),
      DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
    }),
  );
}

/** Dead-letters a delivery whose retries are exhausted, so operators see it in the DLQ too. */
export async function deadLetterDelivery(message: DeliveryMessage): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(WEBHOOK_DELIVERY_QUEUE.deadLetterUrlEnv!), MessageBody: messageBody({ ...message, reason: 'retries_exhausted' }) }));
}
