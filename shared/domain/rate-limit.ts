/**
 * Per-tenant request budgets as a token bucket, kept in the GCRA form (generic cell rate
 * algorithm): the whole bucket is one number, the tenant's "theoretical arrival time" (TAT).
 * Each admitted request pushes the TAT one emission interval T = 1/rate further; a request is
 * admitted while the TAT is at most (burst - 1)·T ahead of now. That is exactly a bucket of
 * `burst` tokens refilled at `rate` per second, but one number can be advanced by one atomic,
 * conditional database write, with no read first (shared/adapters/dynamodb/rate-limit-repository.ts).
 *
 * Times are integer microseconds since the epoch, so the arithmetic is exact in DynamoDB and here.
 */
export interface RateLimitPolicy {
  /** Sustained requests per second. */
  ratePerSecond: number;
  /** Requests that may arrive at once after a quiet period (the bucket's size). */
  burst: number;
}

/** What the limiter answers for one request; the HTTP layer turns it into headers. */
export interface RateLimitDecision {
  allowed: boolean;
  /** The bucket's size: `RateLimit-Limit`. */
  limit: number;
  /** Requests that could be sent right now: `RateLimit-Remaining`. */
  remaining: number;
  /** Whole seconds until the bucket is full again: `RateLimit-Reset`. */
  resetSeconds: number;
  /** Whole seconds (≥ 1) until the next request can be admitted; only when rejected. */
  retryAfterSeconds?: number;
}

const MICROS = 1_000_000;

/** T: microseconds one request costs. */
export function emissionInterval(policy: RateLimitPolicy): number {
  return Math.max(1, Math.round(MICROS / policy.ratePerSecond));
}

/**
 * How far behind now a stored TAT may lag and still be advanced by `+T` rather than reset to now:
 * a tenth of the bucket's span, at most 1 s. Lambda instances read their clocks a little apart,
 * and an exact reset would make every concurrent peer of an idle bucket, whose clock already read
 * later, start over. The price: a bucket may hold up to a tenth more than `burst` after a pause.
 */
export function lagTolerance(policy: RateLimitPolicy): number {
  return Math.min(MICROS, Math.floor((policy.burst * emissionInterval(policy)) / 10));
}

/**
 * The bounds the conditional writes need to take `tokens` at once (an instance leases a few:
 * shared/domain/rate-limit-lease.ts): a take at `nowUs` advances a stored TAT between
 * `earliestAdvancedTat` and `latestAdmissibleTat` by `increment`; an older TAT (a bucket that has
 * been full a while) is reset to `tatFromIdle`; a later one means fewer than `tokens` are left.
 */
export function admissionBounds(policy: RateLimitPolicy, nowUs: number, tokens = 1): { increment: number; earliestAdvancedTat: number; latestAdmissibleTat: number; tatFromIdle: number } {
  const interval = emissionInterval(policy);
  return { increment: tokens * interval, earliestAdvancedTat: nowUs - lagTolerance(policy), latestAdmissibleTat: nowUs + (policy.burst - tokens) * interval, tatFromIdle: nowUs + tokens * interval };
}

/** Tokens in the bucket at `nowUs` given its TAT: `n` fit while TAT + n·T ≤ now + burst·T. */
export function availableTokens(policy: RateLimitPolicy, nowUs: number, tat: number): number {
  const interval = emissionInterval(policy);
  return clamp(Math.floor((nowUs + policy.burst * interval - tat) / interval), 0, policy.burst);
}

/** The decision for an admitted request, from the TAT it left behind. */
export function admitted(policy: RateLimitPolicy, nowUs: number, tatAfter: number): RateLimitDecision {
  const increment = emissionInterval(policy);
  const remaining = Math.floor((nowUs + policy.burst * increment - tatAfter) / increment);
  return { allowed: true, limit: policy.burst, remaining: clamp(remaining, 0, policy.burst), resetSeconds: Math.max(0, Math.ceil((tatAfter - nowUs) / MICROS)) };
}

/** The decision for a rejected request, from the TAT that made it wait. */
export function rejected(policy: RateLimitPolicy, nowUs: number, tatBefore: number): RateLimitDecision {
  const { latestAdmissibleTat } = admissionBounds(policy, nowUs);
  return {
    allowed: false,
    limit: policy.burst,
    remaining: 0,
    resetSeconds: Math.max(1, Math.ceil((tatBefore - nowUs) / MICROS)),
    retryAfterSeconds: Math.max(1, Math.ceil((tatBefore - latestAdmissibleTat) / MICROS)),
  };
}

/**
 * Takes up to `wanted` tokens at once on a value in hand: as many as fit, or none. The reference
 * the conditional writes implement. `tatBefore` undefined is a tenant never seen (a full bucket).
 */
export function take(policy: RateLimitPolicy, nowUs: number, tatBefore: number | undefined, wanted: number): { granted: number; tatAfter: number | undefined } {
  const { earliestAdvancedTat } = admissionBounds(policy, nowUs);
  const effective = tatBefore === undefined || tatBefore < earliestAdvancedTat ? nowUs : tatBefore;
  const granted = Math.min(wanted, availableTokens(policy, nowUs, effective));
  if (granted < 1) return { granted: 0, tatAfter: tatBefore };
  return { granted, tatAfter: effective + granted * emissionInterval(policy) };
}

/** One request's decision on a value in hand: what the unit tests exercise. */
export function decide(policy: RateLimitPolicy, nowUs: number, tatBefore: number | undefined): { decision: RateLimitDecision; tatAfter: number | undefined } {
  const { granted, tatAfter } = take(policy, nowUs, tatBefore, 1);
  // A refused take saw a TAT ahead of now: tatBefore itself.
  if (granted === 0) return { decision: rejected(policy, nowUs, tatBefore!), tatAfter };
  return { decision: admitted(policy, nowUs, tatAfter!), tatAfter };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
