import type { EventType } from '#shared/domain/event';

export type WebhookStatus = 'enabled' | 'disabled';

/** A subscription. Secrets are stored only as ciphertext (KMS on AWS). */
export interface Webhook {
  webhook_id: string;
  tenant_id: string;
  url: string;
  events: EventType[];
  status: WebhookStatus;
  disabled_reason?: 'gone' | 'failing_for_5_days' | 'disabled_by_user';
  secret_ciphertext: string;
  /** The secret being rotated out: it still signs until `previous_secret_expires_at`. */
  previous_secret_ciphertext?: string;
  previous_secret_expires_at?: string;
  created_at: string;
  updated_at: string;
  last_success_at?: string;
  failing_since?: string;
}

export function renderWebhook(webhook: Webhook) {
  return {
    webhook_id: webhook.webhook_id,
    url: webhook.url,
    events: webhook.events,
    status: webhook.status,
    ...(webhook.disabled_reason && webhook.status === 'disabled' ? { disabled_reason: webhook.disabled_reason } : {}),
    ...(webhook.previous_secret_expires_at ? { previous_secret_expires_at: webhook.previous_secret_expires_at } : {}),
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
    ...(webhook.last_success_at ? { last_success_at: webhook.last_success_at } : {}),
    ...(webhook.failing_since ? { failing_since: webhook.failing_since } : {}),
  };
}

/** The encryption context of a subscription's secret: a ciphertext cannot move to another one. */
export function secretContext(webhook: Pick<Webhook, 'tenant_id' | 'webhook_id'>): Record<string, string> {
  return { tenant_id: webhook.tenant_id, webhook_id: webhook.webhook_id, purpose: 'webhook-signing-secret' };
}

/** The request an attempt sent: its signature headers are HMACs of the body, never the secret. */
export interface SentRequest {
  url: string;
  headers: Record<string, string>;
}

/** The start of what the receiver answered, kept so a person can see why an attempt failed. */
export interface ResponseExcerpt {
  status_code: number;
  content_type?: string;
  /** The body's first bytes as UTF-8 text (RESPONSE_EXCERPT_BYTES at most). */
  body: string;
  /** The body went on past `body`, or was cut short (deadline, reset) before it ended. */
  truncated: boolean;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status_code?: number;
  latency_ms: number;
  error?: string;
  ok: boolean;
  /** Kept for the latest ATTEMPT_DETAILS_KEPT attempts only; removed from older ones. */
  request?: SentRequest;
  response?: ResponseExcerpt;
}

/**
 * Attempts whose request and response stay stored. A delivery makes up to 125 attempts per round
 * and a resend starts another: with every excerpt kept, a failing endpoint's delivery item would
 * outgrow DynamoDB's item limit, and each attempt's write is billed by the whole item.
 */
export const ATTEMPT_DETAILS_KEPT = 10;

export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed' | 'skipped';

/** One event for one subscription, with every attempt. Its id is the event id (X-Service-Delivery). */
export interface Delivery {
  tenant_id: string;
  webhook_id: string;
  event_id: string;
  event_type: EventType;
  /** The task the event belongs to: deliveries of one task to one subscription go out in order. */
  task_id?: string;
  /**
   * The task's previous event that this subscription takes, whose delivery must end before this
   * one goes (webhook-ordering.ts); `null` for the subscription's first event of the task. Absent
   * on deliveries fanned out before the fan-out named it: the deliverer then reads the task's log.
   */
  previous_event_id?: string | null;
  /**
   * The exact body, built once so every attempt sends (and signs) the same bytes. Absent on a
   * delivery read back whose body is stored apart (`body_apart`): the repository's `bodyOf` reads it.
   */
  body?: string;
  body_apart?: true;
  status: DeliveryStatus;
  attempt_count: number;
  attempts: DeliveryAttempt[];
  created_at: string;
  next_attempt_at?: string;
  /** Why the delivery ended without success: retries exhausted (dead-lettered) or endpoint disabled. */
  failure_reason?: 'retries_exhausted' | 'endpoint_disabled' | 'webhook_deleted';
}

/** An attempt as lists show it: the outcome, without the request and response kept with it. */
function attemptSummary({ request: _request, response: _response, ...summary }: DeliveryAttempt) {
  return summary;
}

export function renderDelivery(delivery: Delivery) {
  return {
    delivery_id: delivery.event_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempt_count: delivery.attempt_count,
    attempts: delivery.attempts.map(attemptSummary),
    created_at: delivery.created_at,
    ...(delivery.next_attempt_at ? { next_attempt_at: delivery.next_attempt_at } : {}),
    ...(delivery.failure_reason ? { failure_reason: delivery.failure_reason } : {}),
  };
}

/**
 * One delivery with what went over the wire: the request of its latest attempt that kept one (the
 * exact body, and the headers as sent) and each attempt's response excerpt. Before any attempt,
 * `request` has the subscription's URL and no headers yet.
 */
export function renderDeliveryDetail(delivery: Delivery, body: string, currentUrl: string) {
  const sent = delivery.attempts.findLast((attempt) => attempt.request !== undefined);
  return {
    ...renderDelivery(delivery),
    request: {
      method: 'POST' as const,
      url: sent?.request?.url ?? currentUrl,
      ...(sent ? { attempt: sent.attempt, headers: sent.request!.headers } : {}),
      body,
    },
    attempts: delivery.attempts.map(({ request: _request, ...attempt }) => attempt),
  };
}
