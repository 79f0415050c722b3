import { secretCipher } from '#shared/adapters/crypto/secret-cipher';
import { validateWebhookUrl } from '#shared/adapters/http/ssrf-guard';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { dispatchDelivery } from '#shared/adapters/sqs/delivery-dispatcher';
import { systemClock } from '#shared/domain/clock';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import type { EventType } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import { secretContext, type Delivery, type DeliveryStatus, type Webhook } from '#shared/domain/webhook';

/** Loopback receivers are allowed only where the deployment says so (the local runtime). */
export function allowLoopbackWebhooks(): boolean {
  return process.env.WEBHOOK_ALLOW_LOOPBACK === 'true';
}

/**
 * Subscriptions per tenant (OWASP API4): bounds GET /webhooks, which does not page, and the
 * deliveries one event fans out to. A soft cap: two concurrent creations may both pass it.
 */
export const MAX_WEBHOOKS_PER_TENANT = 25;

export async function createWebhook(tenantId: string, request: { url: string; events: EventType[]; secret: string }): Promise<Webhook> {
  const url = validateWebhookUrl(request.url, { allowLoopback: allowLoopbackWebhooks() }).toString();
  if ((await webhookRepository.listAll(tenantId)).length >= MAX_WEBHOOKS_PER_TENANT) {
    throw new ConflictError('webhook_limit_reached', `A tenant may have at most ${MAX_WEBHOOKS_PER_TENANT} webhook subscriptions. Delete one first.`);
  }
  const now = systemClock.now().toISOString();
  const webhookId = newId('whk');
  const webhook: Webhook = {
    webhook_id: webhookId,
    tenant_id: tenantId,
    url,
    events: [...new Set(request.events)],
    status: 'enabled',
    secret_ciphertext: await secretCipher().encrypt(request.secret, secretContext({ tenant_id: tenantId, webhook_id: webhookId })),
    created_at: now,
    updated_at: now,
  };
  await webhookRepository.create(webhook);
  return webhook;
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

/** Replaces the signing secret; the old one keeps signing (as a second signature) for the overlap. */
export async function rotateWebhookSecret(tenantId: string, webhookId: string, request: { secret: string; overlap_hours: number }): Promise<Webhook> {
  const webhook = await getWebhook(tenantId, webhookId);
  const now = systemClock.now();
  return webhookRepository.update(tenantId, webhookId, {
    secret_ciphertext: await secretCipher().encrypt(request.secret, secretContext(webhook)),
    previous_secret_ciphertext: webhook.secret_ciphertext,
    previous_secret_expires_at: new Date(now.getTime() + request.overlap_hours * 3600_000).toISOString(),
    updated_at: now.toISOString(),
  });
}

export async function listDeliveries(tenantId: string, webhookId: string, query: { limit: number; cursor?: string; status?: DeliveryStatus }) {
  await getWebhook(tenantId, webhookId);
  return webhookRepository.listDeliveries(tenantId, webhookId, query);
}

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
  let queued = 0;
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await webhookRepository.listDeliveries(tenantId, webhookId, { limit: 100, cursor, status: 'failed', since });
    for (const delivery of result.deliveries) {
      await requeue(delivery);
      queued++;
    }
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return queued;
}

async function requeue(delivery: Delivery): Promise<void> {
  await webhookRepository.reopen(delivery, systemClock.now().toISOString());
  await dispatchDelivery({ tenant_id: delivery.tenant_id, webhook_id: delivery.webhook_id, event_id: delivery.event_id, attempt: delivery.attempt_count + 1 });
}
