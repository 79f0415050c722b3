import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { dispatchDelivery } from '#shared/adapters/sqs/delivery-dispatcher';
import { systemClock } from '#shared/domain/clock';
import { NotFoundError } from '#shared/domain/errors';
import type { Delivery, DeliveryStatus } from '#shared/domain/webhook';
import { getWebhook } from '#shared/services/webhooks';

// Resend and recover queue delivery attempts; apart from the other webhook operations so that
// only their two routes bundle the SQS client.

/** Queues a new attempt of one delivery, whatever its state (Stripe's and Svix's "resend"). */
export async function resendDelivery(tenantId: string, webhookId: string, eventId: string): Promise<Delivery> {
  await getWebhook(tenantId, webhookId);
  const delivery = await webhookRepository.getDelivery(tenantId, webhookId, eventId);
  if (!delivery) throw new NotFoundError('delivery', eventId);
  await requeue(delivery);
  return { ...delivery, status: 'retrying' };
}

/** Queues a new attempt of every failed delivery since `since` (Svix's "recover"). */
export async function recoverDeliveries(tenantId: string, webhookId: string, since: string): Promise<number> {
  await getWebhook(tenantId, webhookId);
  return forEachDelivery(tenantId, webhookId, { status: 'failed', since }, requeue);
}

/** Runs `work` on each delivery of a subscription that the filter selects, newest first; returns how many. */
export async function forEachDelivery(tenantId: string, webhookId: string, filter: { status: DeliveryStatus; since?: string }, work: (delivery: Delivery) => Promise<void>): Promise<number> {
  let done = 0;
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await webhookRepository.listDeliveries(tenantId, webhookId, { limit: 100, cursor, ...filter });
    for (const delivery of result.deliveries) {
      await work(delivery);
      done++;
    }
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return done;
}

async function requeue(delivery: Delivery): Promise<void> {
  await webhookRepository.reopen(delivery, systemClock.now().toISOString());
  await dispatchDelivery({ tenant_id: delivery.tenant_id, webhook_id: delivery.webhook_id, event_id: delivery.event_id, attempt: delivery.attempt_count + 1 });
}
