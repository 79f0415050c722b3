import { secretCipher } from '#shared/adapters/crypto/secret-cipher';
import { deliverWebhook } from '#shared/adapters/http/deliver-webhook';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { deadLetterDelivery, dispatchDelivery, type DeliveryMessage } from '#shared/adapters/sqs/delivery-dispatcher';
import { getIntegerFromEnv, once } from '#shared/config/env';
import { DecryptCache } from '#shared/domain/decrypt-cache';
import { systemClock } from '#shared/domain/clock';
import { decideEndpointDisable, nextAttemptDelaySeconds, nextFailingSince } from '#shared/domain/webhook-retry';
import { signWebhook, type SigningSecrets } from '#shared/domain/webhook-signature';
import { secretContext, type Delivery, type DeliveryAttempt, type Webhook } from '#shared/domain/webhook';
import { addLogContext, withLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';
import { allowLoopbackWebhooks } from '#shared/services/webhooks';
import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import type { ServiceEvent } from '#shared/domain/event';
import { orderingDecision, takesEvent, type EarlierEvent } from '#shared/domain/webhook-ordering';
import { idTime } from '#shared/domain/ids';

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

/** Per warm instance: a subscription's secret is decrypted (a KMS request on AWS) at most every 15 minutes. */
const decryptedSecrets = once(() => new DecryptCache(secretCipher(), { maxAgeMs: 15 * 60_000, maxEntries: 1_000 }));

async function signingSecrets(webhook: Webhook): Promise<SigningSecrets> {
  const context = secretContext(webhook);
  const current = await decryptedSecrets().decrypt(webhook.secret_ciphertext, context);
  if (!webhook.previous_secret_ciphertext || !webhook.previous_secret_expires_at) return { current };
  return { current, previous: { secret: await decryptedSecrets().decrypt(webhook.previous_secret_ciphertext, context), expiresAt: new Date(webhook.previous_secret_expires_at) } };
}

/**
 * How stale `last_success_at` may get while deliveries succeed: it is written at most this often
 * then, not once per delivery (one write to the subscription's item per delivery was most of a
 * busy subscription's write load). It still clears a failing streak at once.
 */
const LAST_SUCCESS_RESOLUTION_MS = 60_000;

/** Seconds until the next attempt, scaled by WEBHOOK_RETRY_SCALE_PERCENT (tests shrink the schedule). */
function retryDelay(attempt: number): number | undefined {
  const delay = nextAttemptDelaySeconds(attempt, Math.random);
  return delay === undefined ? undefined : (delay * getIntegerFromEnv('WEBHOOK_RETRY_SCALE_PERCENT', 100)) / 100;
}

/** What an attempt already knows when it follows its predecessor in the same invocation. */
interface Known {
  webhook?: Webhook;
  /** The event whose delivery just ended here: this attempt was released by it, and goes only if still `pending`. */
  ended?: string;
  /** This attempt's delivery, read while the one before it was being sent. */
  delivery?: Delivery;
  /**
   * The write of the previous delivery's end, still under way: false once it lost to a duplicate
   * worker that recorded that attempt first (which then carries the chain on instead).
   */
  previousRecorded?: Promise<boolean>;
}

/**
 * Per-(webhook, task) order (webhook-ordering.ts): false when an earlier event of the same task
 * is still undelivered to this subscription. The attempt is then queued again, unchanged, to look
 * again when the earlier one is due (and that one's attempt re-sent if it is long overdue); it is
 * not counted as an attempt, so waiting never uses up a delivery's retries. The fan-out names the
 * predecessor, so this is one read; deliveries fanned out before it did read the task's log.
 */
async function mayGoInOrder(delivery: Delivery, webhook: Webhook, message: DeliveryMessage, now: Date, known: Known): Promise<boolean> {
  if (delivery.previous_event_id === null || (delivery.previous_event_id !== undefined && delivery.previous_event_id === known.ended)) return true;
  const earlier = delivery.previous_event_id !== undefined ? await namedPredecessor(delivery, delivery.previous_event_id) : await earlierFromLog(delivery, webhook);
  if (earlier.length === 0) return true;
  const decision = orderingDecision(earlier, webhook.created_at, now);
  if (decision.action === 'deliver') return true;
  if (decision.kickBlocker) await dispatchDelivery({ ...message, event_id: decision.blockedBy, attempt: decision.kickBlocker.attempt });
  await dispatchDelivery(message, decision.delaySeconds);
  return false;
}

async function namedPredecessor(delivery: Delivery, previousEventId: string): Promise<EarlierEvent[]> {
  const previous = await webhookRepository.getDelivery(delivery.tenant_id, delivery.webhook_id, previousEventId);
  return [{ event_id: previousEventId, created_at: idTime(previousEventId).toISOString(), ...(previous ? { delivery: previous } : {}) }];
}

async function earlierFromLog(delivery: Delivery, webhook: Webhook): Promise<EarlierEvent[]> {
  const earlier: ServiceEvent[] = [];
  let lower = 'evt_';
  for (let page = 0; page < 10; page++) {
    const { events, more } = await eventRepository.after(delivery.tenant_id, { taskId: delivery.task_id, types: webhook.events }, lower, delivery.event_id, 100);
    earlier.push(...events.filter((event) => event.event_id < delivery.event_id));
    if (!more || events.length === 0) break;
    lower = events.at(-1)!.event_id;
  }
  if (earlier.length === 0) return [];
  const deliveries = new Map((await webhookRepository.getDeliveries(delivery.tenant_id, delivery.webhook_id, earlier.map((event) => event.event_id))).map((found) => [found.event_id, found]));
  return earlier.map((event) => ({ event_id: event.event_id, created_at: event.created_at, delivery: deliveries.get(event.event_id) }));
}

/**
 * The task's next event that the subscription takes, once this delivery ended (delivered, or
 * given up): its delivery, if it is waiting its turn, goes next, so order costs no queue hop nor
 * polling interval.
 */
async function nextInOrder(delivery: Delivery, webhook: Webhook): Promise<string | undefined> {
  if (!delivery.task_id) return undefined;
  const events = await eventRepository.summariesAfterForTask(delivery.tenant_id, delivery.task_id, webhook.events, delivery.event_id, 5);
  return events.find((event) => takesEvent(webhook, event))?.event_id;
}

/** The task's next event for the subscription and its delivery as read before this one ended; never throws. */
async function lookAhead(delivery: Delivery, webhook: Webhook): Promise<{ eventId?: string; delivery?: Delivery }> {
  try {
    const eventId = await nextInOrder(delivery, webhook);
    return { eventId, delivery: eventId ? await webhookRepository.getDelivery(delivery.tenant_id, delivery.webhook_id, eventId) : undefined };
  } catch {
    return {};
  }
}

/**
 * Lets the next delivery go: in this invocation, right after this one, while it has time for
 * another attempt (`remainingMs`); otherwise through the queue. Only a `pending` delivery is
 * released (one whose own backoff runs keeps it), so its attempt is the first; its own waiting
 * message is dropped as stale when it comes back. `ahead` was read before this delivery's end was
 * written: a pending delivery found there is taken as it is, but one not found is read again
 * now, after the write, since its fan-out may have just missed the end (and queued no attempt).
 * Returns what to attempt here.
 */
async function releaseNext(delivery: Delivery, webhook: Webhook, message: DeliveryMessage, options: DeliveryOptions, ahead: { eventId?: string; delivery?: Delivery } = {}): Promise<Continuation | undefined> {
  try {
    const next = ahead.eventId ?? (await nextInOrder(delivery, webhook));
    if (!next) return undefined;
    const waiting = ahead.delivery?.status === 'pending' ? ahead.delivery : await webhookRepository.getDelivery(delivery.tenant_id, delivery.webhook_id, next);
    if (waiting?.status !== 'pending') return undefined;
    const nextMessage: DeliveryMessage = { ...message, event_id: next, attempt: 1 };
    if (hasTimeForAnother(options)) return { message: nextMessage, known: { webhook, ended: delivery.event_id, delivery: waiting } };
    await dispatchDelivery(nextMessage);
  } catch (error) {
    // The successor still looks again by itself (BACKSTOP_SECONDS); this only makes it sooner.
    logger.warn('could not release the next delivery of the task', { error: String(error) });
  }
  return undefined;
}

/** Time kept back, besides two attempts' timeouts, before taking a task's next delivery inline. */
const INLINE_MARGIN_MS = 5_000;

const attemptTimeoutMs = () => getIntegerFromEnv('WEBHOOK_TIMEOUT_MS', 15_000);

function hasTimeForAnother(options: DeliveryOptions): boolean {
  const remaining = options.remainingMs?.();
  return remaining !== undefined && remaining > 2 * attemptTimeoutMs() + INLINE_MARGIN_MS;
}

export interface DeliveryOptions {
  /** Time the invocation has left: a task's next delivery follows in it only while there is room. */
  remainingMs?: () => number;
}

interface Continuation {
  message: DeliveryMessage;
  known: Known;
}

/**
 * Makes delivery attempt `message.attempt`, then the attempts it releases (the task's next
 * deliveries to the same subscription), one after another while the invocation has time. The
 * next attempt is queued BEFORE this one is recorded: a crash in between repeats this attempt
 * (receivers dedupe by X-Service-Delivery), and a stale duplicate of an attempt that was already
 * recorded is dropped, so no attempt chain is ever lost or doubled.
 */
export async function attemptDelivery(message: DeliveryMessage, options: DeliveryOptions = {}): Promise<void> {
  let next = await attemptOnce(message, {}, options);
  while (next) {
    const { message: following, known } = next;
    try {
      next = await withLogContext({ event_id: following.event_id, attempt: following.attempt, correlation_id: following.event_id, released_by: message.event_id }, () => attemptOnce(following, known, options));
    } catch (error) {
      // Through the queue, so that it is retried soon (its own waiting message is a late backstop).
      logger.warn('a released delivery failed here; it is queued', { released_event_id: following.event_id, error: String(error) });
      await dispatchDelivery(following).catch(() => undefined);
      return;
    }
  }
}

async function attemptOnce(message: DeliveryMessage, known: Known, options: DeliveryOptions): Promise<Continuation | undefined> {
  const delivery = known.delivery ?? (await webhookRepository.getDelivery(message.tenant_id, message.webhook_id, message.event_id));
  if (!delivery || delivery.status === 'succeeded' || message.attempt <= delivery.attempt_count) return undefined;
  if (known.ended !== undefined && delivery.status !== 'pending') return undefined;
  addLogContext({ task_id: delivery.task_id ?? (delivery.body !== undefined ? taskIdOf(delivery.body) : undefined), event_type: delivery.event_type });
  const webhook = known.webhook ?? (await webhookRepository.get(message.tenant_id, message.webhook_id));
  if (!webhook) {
    await webhookRepository.finishWithoutAttempt(delivery, 'skipped', 'webhook_deleted');
    return undefined;
  }
  if (webhook.status !== 'enabled') {
    await webhookRepository.finishWithoutAttempt(delivery, 'failed', 'endpoint_disabled');
    return undefined;
  }

  const now = systemClock.now();
  if (delivery.task_id && !(await mayGoInOrder(delivery, webhook, message, now, known))) return undefined;
  // The task's next delivery is looked up while this one is sent: each delivery of a chain then
  // waits for its POST and the write of its end, not for reads as well.
  const ahead = lookAhead(delivery, webhook);
  const [body, secrets] = await Promise.all([webhookRepository.bodyOf(delivery), signingSecrets(webhook)]);
  const headers = signWebhook({ body, eventId: delivery.event_id, eventType: delivery.event_type, timestamp: now, secrets });
  const result = await deliverWebhook({ url: webhook.url, body, headers, allowLoopback: allowLoopbackWebhooks(), timeoutMs: attemptTimeoutMs() });
  const attempt: DeliveryAttempt = {
    attempt: message.attempt,
    at: now.toISOString(),
    ok: result.ok,
    latency_ms: result.latencyMs,
    ...(result.statusCode !== undefined ? { status_code: result.statusCode } : {}),
    ...(result.error ? { error: result.error } : {}),
    request: { url: webhook.url, headers },
    ...(result.response ? { response: result.response } : {}),
  };

  // A chain stops behind a duplicate worker; a failed write only leaves the previous delivery open
  // (its backstop sends it again, after this one: receivers dedupe, so the order stands).
  const chainHolds = known.previousRecorded ? await known.previousRecorded.catch(() => true) : true;
  if (result.ok) {
    const recording = webhookRepository.recordAttempt(delivery, attempt, 'succeeded');
    recording.catch(() => undefined);
    reportAttempt(attempt, 'succeeded');
    if (!chainHolds) {
      await recording;
      return undefined;
    }
    const found = await ahead;
    const quick = found.delivery?.status === 'pending' && !webhook.failing_since && webhook.last_success_at && now.getTime() - Date.parse(webhook.last_success_at) < LAST_SUCCESS_RESOLUTION_MS;
    if (quick && hasTimeForAnother(options)) {
      // The next one is known and waiting: it is sent while this end is written, since the order
      // only needs this POST answered first. Its own end is written only after this one stood.
      return { message: { ...message, event_id: found.eventId!, attempt: 1 }, known: { webhook, ended: delivery.event_id, delivery: found.delivery, previousRecorded: recording } };
    }
    const recorded = await recording;
    let current = webhook;
    if (webhook.failing_since || !webhook.last_success_at || now.getTime() - Date.parse(webhook.last_success_at) >= LAST_SUCCESS_RESOLUTION_MS) {
      await webhookRepository.update(webhook.tenant_id, webhook.webhook_id, { last_success_at: now.toISOString() }, ['failing_since']).catch(() => undefined);
      // The deliveries that follow here see it, and do not write it again.
      current = { ...webhook, last_success_at: now.toISOString(), failing_since: undefined };
    }
    // Another worker recorded this attempt first (a duplicate message): that one releases the next.
    return recorded ? releaseNext(delivery, current, message, options, found) : undefined;
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
    return undefined;
  }
  const delay = retryDelay(message.attempt);
  if (delay === undefined) {
    await deadLetterDelivery(message);
    const recorded = await webhookRepository.recordAttempt(delivery, attempt, 'failed', { failure_reason: 'retries_exhausted' });
    reportAttempt(attempt, 'dead_lettered');
    return recorded && chainHolds ? releaseNext(delivery, webhook, message, options, await ahead) : undefined;
  }
  await dispatchDelivery({ ...message, attempt: message.attempt + 1 }, delay);
  const nextAttemptAt = new Date(now.getTime() + delay * 1000).toISOString();
  await webhookRepository.recordAttempt(delivery, attempt, 'retrying', { next_attempt_at: nextAttemptAt });
  reportAttempt(attempt, 'retrying', nextAttemptAt);
  return undefined;
}
