import { startReceiver } from '../test/support/webhook-receiver';
import { EVENT_TYPES } from '#shared/domain/event';
import type { ApiClient } from './api-client';

/** A webhook body as the service sends it (shared/domain/webhook-signature.ts `buildWebhookBody`). */
export interface WebhookPayload {
  id: string;
  type: string;
  created_at: string;
  data: { task_id?: string; approval_id?: string } & Record<string, unknown>;
}

export interface WebhookListener {
  close(): Promise<void>;
}

/**
 * A loopback receiver that answers 204 and hands each delivery, parsed, to `onDelivery` with the
 * time it arrived; subscribed for the bench tenant to `events` (all types by default).
 */
export async function listenForWebhooks(api: ApiClient, onDelivery: (payload: WebhookPayload, receivedAt: number) => void, events: readonly string[] = EVENT_TYPES): Promise<WebhookListener> {
  const receiver = await startReceiver((_, delivery) => {
    onDelivery(JSON.parse(delivery.body) as WebhookPayload, delivery.at);
    return 204;
  });
  try {
    await api.call('POST', '/webhooks', { body: { url: receiver.url, events, secret: 'bench-webhook-secret-0123456789' } });
  } catch (error) {
    await receiver.close();
    throw error;
  }
  return { close: receiver.close };
}
