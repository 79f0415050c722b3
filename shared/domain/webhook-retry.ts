/**
 * When to retry a failed webhook delivery, and when to give up on an endpoint.
 *
 * Schedule (delivery is at-least-once; `attempt` counts deliveries, the first is attempt 1):
 * - ceiling(n) = min(30 s × 2^(n-1), 900 s): 30, 60, 120, 240, 480, then 900 s for every later retry.
 * - delay(n) = round(ceiling(n) × (1 − 0.2 × random)), random ∈ [0, 1]: each delay lies in
 *   [0.8 × ceiling, ceiling]. Jitter spreads the retries of many deliveries that failed together
 *   (an endpoint outage) so they do not return as one burst.
 * - The cap is 900 s because that is the longest single SQS `DelaySeconds`; a retry is one
 *   re-enqueue with that delay, never a chain of re-delays, and the cost of the cap is simply
 *   more attempts.
 * - Attempts 1..124 are followed by a retry; after attempt 125 fails the delivery is dead-lettered.
 *   Minimum total wait: 24 + 48 + 96 + 192 + 384 + 119 × 720 = 86 424 s ≥ 24 h, whatever the
 *   random source says (the jitter only ever lengthens this). Maximum: 930 + 119 × 900 =
 *   108 030 s ≈ 30 h.
 */

export const FIRST_RETRY_CEILING_SECONDS = 30;
/** SQS caps `DelaySeconds` at 900. */
export const MAX_RETRY_DELAY_SECONDS = 900;
export const RETRY_JITTER_FRACTION = 0.2;
/** The 125th attempt is the last; see the schedule above for why 125 covers 24 hours. */
export const MAX_DELIVERY_ATTEMPTS = 125;
export const MIN_RETRY_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * Seconds to wait after attempt `attempt` failed before the next one, or `undefined` when that
 * was the last attempt and the delivery goes to the dead-letter queue. `random` returns [0, 1)
 * like `Math.random`; values outside [0, 1] are clamped so a bad source cannot break the bounds.
 */
export function nextAttemptDelaySeconds(attempt: number, random: () => number): number | undefined {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  if (attempt >= MAX_DELIVERY_ATTEMPTS) return undefined;
  const ceiling = Math.min(FIRST_RETRY_CEILING_SECONDS * 2 ** (attempt - 1), MAX_RETRY_DELAY_SECONDS);
  return Math.round(ceiling * (1 - RETRY_JITTER_FRACTION * clampUnit(random())));
}

function clampUnit(value: number): number {
  return Number.isNaN(value) ? 0 : Math.min(1, Math.max(0, value));
}

/** Five days of uninterrupted failure, as Svix and Stripe do, before an endpoint is switched off. */
export const AUTO_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

export interface EndpointHealth {
  lastSuccessAt?: Date;
  /** First failure of the current failing streak; unset while the endpoint is healthy. */
  failingSince?: Date;
  now: Date;
  /** HTTP status of the latest attempt; undefined when it timed out or never connected. */
  lastStatus?: number;
}

export type DisableDecision = { disable: false } | { disable: true; reason: 'gone' | 'failing_for_5_days' };

/**
 * Whether to disable an endpoint after an attempt. 410 Gone is the receiver asking to be switched
 * off, so it wins at once; otherwise only a streak of failures lasting five days with no success
 * since its start does. A success recorded after `failingSince` means the streak is stale.
 */
export function decideEndpointDisable(health: EndpointHealth): DisableDecision {
  if (health.lastStatus === 410) return { disable: true, reason: 'gone' };
  const { failingSince, lastSuccessAt, now } = health;
  if (!failingSince) return { disable: false };
  if (lastSuccessAt && lastSuccessAt.getTime() >= failingSince.getTime()) return { disable: false };
  return now.getTime() - failingSince.getTime() >= AUTO_DISABLE_AFTER_MS ? { disable: true, reason: 'failing_for_5_days' } : { disable: false };
}

/** The failing-streak start after an attempt: cleared by a success, kept (or started now) by a failure. */
export function nextFailingSince(outcome: { ok: boolean; failingSince?: Date; now: Date }): Date | undefined {
  if (outcome.ok) return undefined;
  return outcome.failingSince ?? outcome.now;
}
