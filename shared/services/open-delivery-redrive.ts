import { apiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { dispatchDelivery } from '#shared/adapters/sqs/delivery-dispatcher';
import { systemClock } from '#shared/domain/clock';
import { forEachDelivery } from '#shared/services/webhook-redelivery';

/**
 * Queues again the attempt every open delivery (pending or retrying) is owed, for every webhook of
 * every tenant: the local runtime's queues live in memory, so after a crash the deliveries whose
 * messages were queued have none. Nothing is written: the attempt is the one the delivery's record
 * expects next (a retry keeps its time, up to SQS's longest delay), and one that was made but not
 * recorded is made again (receivers dedupe by X-Service-Delivery); a waiting delivery goes when
 * its predecessor ends, as always. Tenants are found from the API-key listing, never by scanning.
 * Not for AWS, where queues are durable and this would only add duplicates.
 */
export async function redriveOpenDeliveries(): Promise<number> {
  const tenants = new Set((await apiKeyRepository.list()).map((record) => record.tenant_id));
  const now = systemClock.now().getTime();
  let queued = 0;
  for (const tenantId of tenants) {
    for (const webhook of await webhookRepository.listAll(tenantId)) {
      for (const status of ['pending', 'retrying'] as const) {
        queued += await forEachDelivery(tenantId, webhook.webhook_id, { status }, (delivery) =>
          dispatchDelivery(
            { tenant_id: tenantId, webhook_id: webhook.webhook_id, event_id: delivery.event_id, attempt: delivery.attempt_count + 1 },
            delivery.next_attempt_at ? Math.max(0, (Date.parse(delivery.next_attempt_at) - now) / 1000) : 0,
          ),
        );
      }
    }
  }
  return queued;
}
