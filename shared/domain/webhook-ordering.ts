import type { Delivery, Webhook } from '#shared/domain/webhook';

/**
 * Per-(webhook, task) delivery order: a task's events reach one subscription in the order of the
 * task's event log. A delivery waits while an earlier event of the same task, for the same
 * subscription, is undelivered (its delivery pending or retrying, or not yet fanned out); a
 * delivery that ended (succeeded, failed after its retries, skipped) no longer holds later ones
 * back. The fan-out names each delivery's predecessor (the subscription's previous event of the
 * task), so the deliverer reads one record to know whether it may go; since a delivery goes only
 * after its predecessor ended, that one record stands for all the earlier ones. Pure rules here;
 * webhook-fan-out.ts and webhook-delivery.ts read and write the records.
 */

/** How long a fan-out may lag behind its event before the event is taken as never coming. */
export const FAN_OUT_GRACE_SECONDS = 15 * 60;
/** A blocking delivery this overdue has probably lost its message: the waiting one re-sends it. */
export const STALLED_DELIVERY_SECONDS = 120;
/** How long after a retrying blocker is due a waiting delivery looks again (or after kicking a stalled one). */
export const RECHECK_SECONDS = 5;
/**
 * How soon a waiting delivery looks again when the blocker names no time of its own (its first
 * attempt is under way or queued, or it is not fanned out yet). A backstop only: the blocker, once
 * it ends, lets its successor go at once (webhook-delivery.ts `releaseNext`), so looking sooner
 * would only find it still open, at three reads and a message each time (at 5 s, busy tasks'
 * deliveries spent more on looking than on delivering).
 */
export const BACKSTOP_SECONDS = 30;
/** SQS's longest message delay. */
const MAX_DELAY_SECONDS = 900;

/**
 * Whether a subscription gets a delivery of this event, as far as order goes: it takes the type,
 * and the event is not older than the subscription (such events are never delivered to it).
 */
export function takesEvent(webhook: Pick<Webhook, 'events' | 'created_at'>, event: { type: string; created_at: string }): boolean {
  return (webhook.events as readonly string[]).includes(event.type) && event.created_at >= webhook.created_at;
}

/**
 * The event a new delivery of `event` waits for: the latest of `earlier` (the task's events, any
 * order) below it that the subscription takes; `null` when it is the subscription's first.
 */
export function predecessorOf(event: { event_id: string }, earlier: Iterable<{ event_id: string; type: string; created_at: string }>, webhook: Pick<Webhook, 'events' | 'created_at'>): string | null {
  let found: string | null = null;
  for (const candidate of earlier) {
    if (candidate.event_id < event.event_id && (found === null || candidate.event_id > found) && takesEvent(webhook, candidate)) found = candidate.event_id;
  }
  return found;
}

/** An earlier event of the task that the subscription takes, with its delivery if one exists. */
export interface EarlierEvent {
  event_id: string;
  created_at: string;
  delivery?: Pick<Delivery, 'status' | 'attempt_count' | 'created_at' | 'next_attempt_at'>;
}

export type OrderingDecision =
  | { action: 'deliver' }
  | {
      action: 'wait';
      /** The earliest event still undelivered. */
      blockedBy: string;
      /** When to look again. */
      delaySeconds: number;
      /** Re-send the blocker's next attempt: it is overdue and its message probably lost. */
      kickBlocker?: { attempt: number };
    };

const isOpen = (status: Delivery['status']) => status === 'pending' || status === 'retrying';

/**
 * Whether a delivery may go now, given the earlier events of its task that the subscription
 * takes. `webhookCreatedAt`: events older than the subscription never get a delivery for it.
 */
export function orderingDecision(earlier: readonly EarlierEvent[], webhookCreatedAt: string, now: Date): OrderingDecision {
  const sorted = [...earlier].sort((a, b) => a.event_id.localeCompare(b.event_id));
  for (const event of sorted) {
    const { delivery } = event;
    if (!delivery) {
      const age = (now.getTime() - Date.parse(event.created_at)) / 1000;
      if (event.created_at < webhookCreatedAt || age > FAN_OUT_GRACE_SECONDS) continue;
      return { action: 'wait', blockedBy: event.event_id, delaySeconds: Math.min(BACKSTOP_SECONDS, Math.ceil(FAN_OUT_GRACE_SECONDS - age)) };
    }
    if (!isOpen(delivery.status)) continue;
    const due = Date.parse(delivery.next_attempt_at ?? delivery.created_at);
    const untilDue = Math.ceil((due - now.getTime()) / 1000);
    const overdue = -untilDue;
    const stalled = overdue > STALLED_DELIVERY_SECONDS;
    const floor = delivery.next_attempt_at || stalled ? RECHECK_SECONDS : BACKSTOP_SECONDS;
    return {
      action: 'wait',
      blockedBy: event.event_id,
      delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(floor, untilDue + RECHECK_SECONDS)),
      ...(stalled ? { kickBlocker: { attempt: delivery.attempt_count + 1 } } : {}),
    };
  }
  return { action: 'deliver' };
}
