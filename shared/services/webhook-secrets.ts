import { secretCipher } from '#shared/adapters/crypto/secret-cipher';
import { validateWebhookUrl } from '#shared/adapters/http/ssrf-guard';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { systemClock } from '#shared/domain/clock';
import type { EventType } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import { secretContext, type Webhook } from '#shared/domain/webhook';
import { allowLoopbackWebhooks, getWebhook } from '#shared/services/webhooks';

// The two webhook operations that encrypt a signing secret, the only ones that hold the secret
// cipher (KMS on AWS): the other webhook routes bundle neither its client nor need its grant.

export async function createWebhook(tenantId: string, request: { url: string; events: EventType[]; secret: string }): Promise<Webhook> {
  const url = validateWebhookUrl(request.url, { allowLoopback: allowLoopbackWebhooks() }).toString();
  // Refused before the secret is encrypted; the cap itself holds in the create's transaction.
  await tenantCountRepository.ensureRoom(tenantId, 'webhooks');
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
