import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { dispatchDelivery } from '#shared/adapters/sqs/delivery-dispatcher';
import type { ServiceEvent } from '#shared/domain/event';
import { renderTask } from '#shared/domain/task';
import { buildWebhookBody } from '#shared/domain/webhook-signature';
import type { Delivery } from '#shared/domain/webhook';

/**
 * For task events the delivered `data.task` is the full task record with all artifact ids
 * (decisions.md). It is read once, here, and frozen into the delivery's body.
 */
async function deliveryData(event: ServiceEvent): Promise<Record<string, unknown>> {
  if (!event.task_id || !event.type.startsWith('task.')) return event.data;
  const task = await taskRepository.load(event.tenant_id, event.task_id);
  return task ? { ...event.data, task: renderTask(task) } : event.data;
}

/**
 * Fans one new event out to the tenant's enabled subscriptions for its type: one delivery
 * record each (idempotent, keyed by subscription and event) and its first attempt on the queue.
 * Running twice for the same event queues nothing new once the first attempts were recorded.
 */
export async function fanOutEvent(event: ServiceEvent): Promise<number> {
  const subscribers = (await webhookRepository.listAll(event.tenant_id)).filter((webhook) => webhook.status === 'enabled' && webhook.events.includes(event.type));
  if (subscribers.length === 0) return 0;
  const body = buildWebhookBody({ ...event, data: await deliveryData(event) });
  let queued = 0;
  for (const webhook of subscribers) {
    const delivery: Delivery = {
      tenant_id: event.tenant_id,
      webhook_id: webhook.webhook_id,
      event_id: event.event_id,
      event_type: event.type,
      ...(event.task_id ? { task_id: event.task_id } : {}),
      body,
      status: 'pending',
      attempt_count: 0,
      attempts: [],
      created_at: event.created_at,
    };
    const stored = await webhookRepository.createDelivery(delivery);
    if (stored.status === 'pending' && stored.attempt_count === 0) {
      await dispatchDelivery({ tenant_id: event.tenant_id, webhook_id: webhook.webhook_id, event_id: event.event_id, attempt: 1 });
      queued++;
    }
  }
  return queued;
}
