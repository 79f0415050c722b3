import { secretCipher } from '#shared/adapters/crypto/secret-cipher';
import { deliverWebhook } from '#shared/adapters/http/deliver-webhook';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { deadLetterDelivery, dispatchDelivery, type DeliveryMessage } from '#shared/adapters/sqs/delivery-dispatcher';
import { getIntegerFromEnv } from '#shared/config/env';
import { systemClock } from '#shared/domain/clock';
import { decideEndpointDisable, nextAttemptDelaySeconds, nextFailingSince } from '#shared/domain/webhook-retry';
import { signWebhook, type SigningSecrets } from '#shared/domain/webhook-signature';
import { secretContext, type Delivery, type DeliveryAttempt, type Webhook } from '#shared/domain/webhook';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';
import { allowLoopbackWebhooks } from '#shared/services/webhooks';
import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import type { ServiceEvent } from '#shared/domain/event';
import { orderingDecision } from '#shared/domain/webhook-ordering';

/** The task an event is about, read from the frozen body, so the deliverer's lines join the task's history. */
function taskIdOf(body: string): string | undefined {
  try {
    const data = (JSON.parse(body) as { data?: { task_id?: unknown; task?: { task_id?: unknown } } }).data;
    const taskId = data?.task_id ?? data?.task?.task_id;
    return typeof taskId === 'string' ? taskId : undefined;
  } catch {
    return undefined;
  }
}

type AttemptOutcome = 'succeeded' | 'retrying' | 'dead_lettered' | 'endpoint_disabled';

/** One line and the metrics per attempt: the failed-deliveries query reads these fields. */
function reportAttempt(attempt: DeliveryAttempt, outcome: AttemptOutcome, nextAttemptAt?: string): void {
  recordMetric('webhookDeliveries', 1);
  if (!attempt.ok) recordMetric('webhookDeliveryFailures', 1);
  if (outcome === 'dead_lettered') recordMetric('webhookDeliveriesDeadLettered', 1);
  const fields = {
    attempt: attempt.attempt,
    ok: attempt.ok,
    outcome,
    latency_ms: attempt.latency_ms,
    ...(attempt.status_code !== undefined ? { status_code: attempt.status_code } : {}),
    ...(attempt.error ? { delivery_error: attempt.error } : {}),
    ...(nextAttemptAt ? { next_attempt_at: nextAttemptAt } : {}),
  };
  if (attempt.ok) logger.info('webhook delivery attempt', fields);
  else logger.warn('webhook delivery attempt', fields);
}

async function signingSecrets(webhook: Webhook): Promise<SigningSecrets> {
  const context = secretContext(webhook);
  const current = await secretCipher().decrypt(webhook.secret_ciphertext, context);
  if (!webhook.previous_secret_ciphertext || !webhook.previous_secret_expires_at) return { current };
  return { current, previous: { secret: await secretCipher().decrypt(webhook.previous_secret_ciphertext, context), expiresAt: new Date(webhook.previous_secret_expires_at) } };
}

/** Seconds until the next attempt, scaled by WEBHOOK_RETRY_SCALE_PERCENT (tests shrink the schedule). */
function retryDelay(attempt: number): number | undefined {
  const delay = nextAttemptDelaySeconds(attempt, Math.random);
  return delay === undefined ? undefined : (delay * getIntegerFromEnv('WEBHOOK_RETRY_SCALE_PERCENT', 100)) / 100;
}

/**
 * Per-(webhook, task) order (webhook-ordering.ts): false when an earlier event of the same task
 * is still undelivered to this subscription. The attempt is then queued again, unchanged, to look
 * again when the earlier one is due (and that one's attempt re-sent if it is long overdue); it is
 * not counted as an attempt, so waiting never uses up a delivery's retries.
 */
async function mayGoInOrder(delivery: Delivery, webhook: Webhook, message: DeliveryMessage, now: Date): Promise<boolean> {
  const earlier: ServiceEvent[] = [];
  let lower = 'evt_';
  for (let page = 0; page < 10; page++) {
    const { events, more } = await eventRepository.after(delivery.tenant_id, { taskId: delivery.task_id, types: webhook.events }, lower, delivery.event_id, 100);
    earlier.push(...events.filter((event) => event.event_id < delivery.event_id));
    if (!more || events.length === 0) break;
    lower = events.at(-1)!.event_id;
  }
  if (earlier.length === 0) return true;
  const deliveries = new Map((await webhookRepository.getDeliveries(delivery.tenant_id, delivery.webhook_id, earlier.map((event) => event.event_id))).map((found) => [found.event_id, found]));
  const decision = orderingDecision(
    earlier.map((event) => ({ event_id: event.event_id, created_at: event.created_at, delivery: deliveries.get(event.event_id) })),
    webhook.created_at,
    now,
  );
  if (decision.action === 'deliver') return true;
  if (decision.kickBlocker) await dispatchDelivery({ ...message, event_id: decision.blockedBy, attempt: decision.kickBlocker.attempt });
  await dispatchDelivery(message, decision.delaySeconds);
  return false;
}

/**
 * A delivery that ended (delivered, or given up) lets the next delivery of its task to the same
 * subscription go at once, if that one is waiting its turn, instead of at its next look: order
 * costs one hop per event, not a polling interval. Only a `pending` successor is sent (one whose
 * own backoff is running keeps it); a duplicate of its waiting message is dropped as stale.
 */
async function releaseNext(delivery: Delivery, webhook: Webhook, message: DeliveryMessage): Promise<void> {
  if (!delivery.task_id) return;
  try {
    const { events } = await eventRepository.after(delivery.tenant_id, { taskId: delivery.task_id, types: webhook.events }, delivery.event_id, undefined, 5);
    if (events.length === 0) return;
    const later = await webhookRepository.getDeliveries(delivery.tenant_id, delivery.webhook_id, events.map((event) => event.event_id));
    const next = later.filter((found) => found.status === 'pending' || found.status === 'retrying').sort((a, b) => a.event_id.localeCompare(b.event_id))[0];
    if (next?.status === 'pending') await dispatchDelivery({ ...message, event_id: next.event_id, attempt: next.attempt_count + 1 });
  } catch (error) {
    // The successor still looks again by itself (RECHECK_SECONDS); this only makes it sooner.
    logger.warn('could not release the next delivery of the task', { error: String(error) });
  }
}

/**
 * Makes delivery attempt `message.attempt`. The next attempt is queued BEFORE this one is
 * recorded: a crash in between repeats this attempt (receivers dedupe by X-Service-Delivery), and
 * a stale duplicate of an attempt that was already recorded is dropped, so no attempt chain is
 * ever lost or doubled.
 */
export async function attemptDelivery(message: DeliveryMessage): Promise<void> {
  const delivery = await webhookRepository.getDelivery(message.tenant_id, message.webhook_id, message.event_id);
  if (!delivery || delivery.status === 'succeeded' || message.attempt <= delivery.attempt_count) return;
  addLogContext({ task_id: taskIdOf(delivery.body), event_type: delivery.event_type });
  const webhook = await webhookRepository.get(message.tenant_id, message.webhook_id);
  if (!webhook) return webhookRepository.finishWithoutAttempt(delivery, 'skipped', 'webhook_deleted');
  if (webhook.status !== 'enabled') return webhookRepository.finishWithoutAttempt(delivery, 'failed', 'endpoint_disabled');

  const now = systemClock.now();
  if (delivery.task_id && !(await mayGoInOrder(delivery, webhook, message, now))) return;
  const headers = signWebhook({ body: delivery.body, eventId: delivery.event_id, eventType: delivery.event_type, timestamp: now, secrets: await signingSecrets(webhook) });
  const result = await deliverWebhook({ url: webhook.url, body: delivery.body, headers, allowLoopback: allowLoopbackWebhooks(), timeoutMs: getIntegerFromEnv('WEBHOOK_TIMEOUT_MS', 15_000) });
  const attempt: DeliveryAttempt = {
    attempt: message.attempt,
    at: now.toISOString(),
    ok: result.ok,
    latency_ms: result.latencyMs,
    ...(result.statusCode !== undefined ? { status_code: result.statusCode } : {}),
    ...(result.error ? { error: result.error } : {}),
  };

  if (result.ok) {
    await webhookRepository.recordAttempt(delivery, attempt, 'succeeded');
    reportAttempt(attempt, 'succeeded');
    await releaseNext(delivery, webhook, message);
    await webhookRepository.update(webhook.tenant_id, webhook.webhook_id, { last_success_at: now.toISOString() }, ['failing_since']).catch(() => undefined);
    return;
  }

  const failingSince = nextFailingSince({ ok: false, failingSince: webhook.failing_since ? new Date(webhook.failing_since) : undefined, now });
  const disable = decideEndpointDisable({ lastSuccessAt: webhook.last_success_at ? new Date(webhook.last_success_at) : undefined, failingSince, now, lastStatus: result.statusCode });
  await webhookRepository
    .update(webhook.tenant_id, webhook.webhook_id, {
      failing_since: failingSince?.toISOString(),
      ...(disable.disable ? { status: 'disabled' as const, disabled_reason: disable.reason } : {}),
    })
    .catch(() => undefined);
  if (disable.disable) {
    await webhookRepository.recordAttempt(delivery, attempt, 'failed', { failure_reason: 'endpoint_disabled' });
    reportAttempt(attempt, 'endpoint_disabled');
    return;
  }
  const delay = retryDelay(message.attempt);
  if (delay === undefined) {
    await deadLetterDelivery(message);
    await webhookRepository.recordAttempt(delivery, attempt, 'failed', { failure_reason: 'retries_exhausted' });
    reportAttempt(attempt, 'dead_lettered');
    await releaseNext(delivery, webhook, message);
    return;
  }
  await dispatchDelivery({ ...message, attempt: message.attempt + 1 }, delay);
  const nextAttemptAt = new Date(now.getTime() + delay * 1000).toISOString();
  await webhookRepository.recordAttempt(delivery, attempt, 'retrying', { next_attempt_at: nextAttemptAt });
  reportAttempt(attempt, 'retrying', nextAttemptAt);
}
