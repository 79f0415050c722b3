import type { Delivery } from '#shared/domain/webhook';

/**
 * Per-(webhook, task) delivery order: a task's events reach one subscription in the order of the
 * task's event log. A delivery waits while an earlier event of the same task, for the same
 * subscription, is undelivered (its delivery pending or retrying, or not yet fanned out); a
 * delivery that ended (succeeded, failed after its retries, skipped) no longer holds later ones
 * back. Pure rules here; webhook-delivery.ts reads the records and re-queues a waiting attempt.
 */

/** How long a fan-out may lag behind its event before the event is taken as never coming. */
export const FAN_OUT_GRACE_SECONDS = 15 * 60;
/** A blocking delivery this overdue has probably lost its message: the waiting one re-sends it. */
export const STALLED_DELIVERY_SECONDS = 120;
/**
 * How soon a waiting delivery looks again when the blocker names no time of its own. A backstop:
 * the blocker, once it ends, sends its successor at once (webhook-delivery.ts `releaseNext`).
 */
export const RECHECK_SECONDS = 5;
/** SQS's longest message delay. */
const MAX_DELAY_SECONDS = 900;

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
      return { action: 'wait', blockedBy: event.event_id, delaySeconds: RECHECK_SECONDS };
    }
    if (!isOpen(delivery.status)) continue;
    const due = Date.parse(delivery.next_attempt_at ?? delivery.created_at);
    const untilDue = Math.ceil((due - now.getTime()) / 1000);
    const overdue = -untilDue;
    return {
      action: 'wait',
      blockedBy: event.event_id,
      delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(RECHECK_SECONDS, untilDue + RECHECK_SECONDS)),
      ...(overdue > STALLED_DELIVERY_SECONDS ? { kickBlocker: { attempt: delivery.attempt_count + 1 } } : {}),
    };
  }
  return { action: 'deliver' };
}
