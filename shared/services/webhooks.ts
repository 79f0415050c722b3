import { validateWebhookUrl } from '#shared/adapters/http/ssrf-guard';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { systemClock } from '#shared/domain/clock';
import { NotFoundError } from '#shared/domain/errors';
import type { EventType } from '#shared/domain/event';
import type { Delivery, DeliveryStatus, Webhook } from '#shared/domain/webhook';

/** Loopback receivers are allowed only where the deployment says so (the local runtime). */
export function allowLoopbackWebhooks(): boolean {
  return process.env.WEBHOOK_ALLOW_LOOPBACK === 'true';
}

export async function getWebhook(tenantId: string, webhookId: string): Promise<Webhook> {
  const webhook = await webhookRepository.get(tenantId, webhookId);
  if (!webhook) throw new NotFoundError('webhook', webhookId);
  return webhook;
}

export function listWebhooks(tenantId: string): Promise<Webhook[]> {
  return webhookRepository.listAll(tenantId);
}

/** Changes the URL or events, or re-enables (or disables) the subscription. */
export async function updateWebhook(tenantId: string, webhookId: string, request: { url?: string; events?: EventType[]; status?: 'enabled' | 'disabled' }): Promise<Webhook> {
  const fields: Partial<Webhook> = { updated_at: systemClock.now().toISOString() };
  const remove: (keyof Webhook)[] = [];
  if (request.url !== undefined) fields.url = validateWebhookUrl(request.url, { allowLoopback: allowLoopbackWebhooks() }).toString();
  if (request.events !== undefined) fields.events = [...new Set(request.events)];
  if (request.status === 'enabled') {
    fields.status = 'enabled';
    remove.push('disabled_reason', 'failing_since');
  } else if (request.status === 'disabled') {
    fields.status = 'disabled';
    fields.disabled_reason = 'disabled_by_user';
  }
  return webhookRepository.update(tenantId, webhookId, fields, remove);
}

export function deleteWebhook(tenantId: string, webhookId: string): Promise<void> {
  return webhookRepository.delete(tenantId, webhookId);
}

export async function listDeliveries(tenantId: string, webhookId: string, query: { limit: number; cursor?: string; status?: DeliveryStatus }) {
  await getWebhook(tenantId, webhookId);
  return webhookRepository.listDeliveries(tenantId, webhookId, query);
}

/** One delivery of a subscription with the exact body it sends; 404 for either unknown id. */
export async function getDelivery(tenantId: string, webhookId: string, deliveryId: string): Promise<{ webhook: Webhook; delivery: Delivery; body: string }> {
  const webhook = await getWebhook(tenantId, webhookId);
  const delivery = await webhookRepository.getDelivery(tenantId, webhookId, deliveryId);
  if (!delivery) throw new NotFoundError('delivery', deliveryId);
  return { webhook, delivery, body: await webhookRepository.bodyOf(delivery) };
}
