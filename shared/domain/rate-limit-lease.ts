import { admitted, availableTokens, emissionInterval, rejected, type RateLimitDecision, type RateLimitPolicy } from '#shared/domain/rate-limit';

/**
 * Leases of a tenant's shared request budget (shared/domain/rate-limit.ts), held by one process
 * (one Lambda instance). Asking the shared bucket on every request costs a database write per
 * request; instead an instance takes a few tokens in one atomic write and spends them in memory.
 *
 * - **Never more than the bucket allowed.** Tokens leave the shared bucket when they are leased, so
 *   every admission of every instance was counted there first. A lease ends `LEASE_LIFETIME_US`
 *   after the write that took it answered, and its unspent tokens are forfeit (never returned,
 *   never carried over): a token is spent at most that long after the bucket gave it out.
 * - **Small leases.** A lease takes the requests already waiting for it, or, when it expects more
 *   than wait, at most a tenth of the burst (and at most `MAX_SPECULATIVE_TOKENS`), so other
 *   instances never find the bucket emptied into someone's idle lease. The expected size adapts:
 *   1 after an idle spell or when the bucket is near empty (there a forfeit token is another
 *   instance's 429), doubled while leases run out before they end, and shrunk to about half of
 *   what was really used when one ends unspent.
 * - **One write in flight per tenant.** Requests that find no token wait for the lease already on
 *   its way, and the next lease asks for all of them at once.
 * - **Exact refusals without a write.** A refused take hands back the stored TAT; TATs only ever
 *   move later, so until that TAT leaves room for one token, every request of the tenant here is
 *   refused with the same exact Retry-After. * - **The next lease before this one runs out.** When a lease of four or more is down to its last
 *   quarter, the next take starts in the background and its lease waits beside the current one
 *   (each spent only in its own lifetime): at a steady rate no request waits for the write, which
 *   had put a database round trip into every tenth request or so. At most one such lease waits,
 *   of a size as small as the others; sparse traffic and a near-empty bucket never take one.
 */

/** How long a lease's tokens may be spent after the write that took them answered. */
export const LEASE_LIFETIME_US = 1_000_000;
/** The most tokens a lease takes for requests that have not arrived yet. */
export const MAX_SPECULATIVE_TOKENS = 10;
/** The most tokens one lease takes at all, waiting requests included: one take is one write. */
export const MAX_LEASE_TOKENS = 25;
/** The smallest lease whose successor is taken ahead of need: leases grow to it only under a steady rate. */
const AHEAD_MIN_GRANTED = 4;
/** Below this share of the burst left after a lease, the bucket counts as near empty. */
const NEAR_EMPTY_SHARE = 0.25;

/** Tokens taken from the shared bucket in one write, and what is left of them here. */
export interface Lease {
  granted: number;
  /** Not yet spent. */
  tokens: number;
  /** The clock the take's condition compared with. */
  grantedAtUs: number;
  /** Unspent tokens are forfeit from this instant: a lifetime after the take answered. */
  endsAtUs: number;
  /** The bucket's TAT right after the take. */
  tatAfter: number;
}

/** What one atomic take from the shared bucket gave: some tokens, or none and the TAT that refused. */
export type TakeResult = { granted: number; nowUs: number; tatAfter: number } | { nowUs: number; tatBefore: number };

/** The shared bucket (shared/adapters/dynamodb/rate-limit-repository.ts). */
export interface BucketStore {
  /** Takes as many of `wanted` tokens as fit, at least one, in one atomic step; or none. */
  take(tenantId: string, policy: RateLimitPolicy, wanted: number, nowUs: () => number): Promise<TakeResult>;
}

/** Speculative tokens a lease may take under this policy: a tenth of the burst, 1 to MAX_SPECULATIVE_TOKENS. */
export function speculativeCap(policy: RateLimitPolicy): number {
  return Math.min(MAX_SPECULATIVE_TOKENS, Math.max(1, Math.floor(policy.burst / 10)));
}

/**
 * The speculative size of the next lease, from the last one (undefined: none yet) and the size it
 * was taken with. The next lease asks for the larger of this and the requests waiting for it.
 */
export function nextLeaseTarget(policy: RateLimitPolicy, last: Lease | undefined, lastTarget: number, nowUs: number): number {
  if (!last) return 1;
  // Idle for a whole lifetime since the last lease ended: demand is unknown again.
  if (nowUs >= last.endsAtUs + LEASE_LIFETIME_US) return 1;
  if (availableTokens(policy, last.grantedAtUs, last.tatAfter) < policy.burst * NEAR_EMPTY_SHARE) return 1;
  const cap = speculativeCap(policy);
  if (last.tokens === 0 && nowUs < last.endsAtUs) return Math.min(cap, Math.max(1, lastTarget) * 2);
  // Ended with tokens left: about half of what a whole lifetime used.
  return Math.min(cap, Math.max(1, Math.floor((last.granted - last.tokens) / 2)));
}

/** Spends one token of the lease if it has one and has not ended; the decision counts what it still holds. */
export function spendFromLease(policy: RateLimitPolicy, lease: Lease | undefined, nowUs: number): RateLimitDecision | undefined {
  if (!lease || lease.tokens < 1 || nowUs >= lease.endsAtUs) return undefined;
  lease.tokens -= 1;
  // Tokens still held here are as available to this tenant as those left in the bucket.
  return admitted(policy, nowUs, lease.tatAfter - lease.tokens * emissionInterval(policy));
}

interface TenantBudget {
  policy: RateLimitPolicy;
  lease?: Lease;
  /** Taken ahead while `lease` ran low; spent once `lease` has no token left or has ended. */
  next?: Lease;
  target: number;
  /** TAT of the last refused take: no token exists before it leaves room for one. */
  refusedTat?: number;
  /** Requests of this tenant here that wait for a token. */
  waiting: number;
  inFlight?: Promise<void>;
}

/** Tenants kept in memory; idle ones are dropped beyond this (their leases were spent or forfeit). */
const MAX_TENANTS = 10_000;

/** One process's leases of every tenant's shared budget. */
export class LeasedBudgets {
  private readonly budgets = new Map<string, TenantBudget>();

  constructor(private readonly store: BucketStore) {}

  /** Spends one request of the tenant's budget, from a lease when one has a token, or says when to retry. */
  async spend(tenantId: string, policy: RateLimitPolicy, nowUs: () => number): Promise<RateLimitDecision> {
    const budget = this.budgetOf(tenantId, policy);
    budget.waiting += 1;
    try {
      for (;;) {
        const now = nowUs();
        const local = spendFromLease(policy, budget.lease, now) ?? spendFromLease(policy, this.promoteNext(budget, now), now);
        if (local) {
          this.renewAhead(tenantId, budget, now, nowUs);
          return local;
        }
        if (budget.refusedTat !== undefined && availableTokens(policy, now, budget.refusedTat) < 1) return rejected(policy, now, budget.refusedTat);
        // Every lease either grants a token or records a refusal, so this loop ends.
        budget.inFlight ??= this.renew(tenantId, budget, now, nowUs).finally(() => (budget.inFlight = undefined));
        await budget.inFlight;
      }
    } finally {
      budget.waiting -= 1;
    }
  }

  /** The lease taken ahead becomes the current one once the current one is spent or has ended. */
  private promoteNext(budget: TenantBudget, now: number): Lease | undefined {
    if (!budget.next) return undefined;
    if (budget.lease && budget.lease.tokens >= 1 && now < budget.lease.endsAtUs) return undefined;
    budget.lease = budget.next;
    budget.next = undefined;
    return budget.lease;
  }

  /**
   * Starts the next take while the current lease still has its last quarter, if no take is on its
   * way: a lease spent that fast is not idle, so its successor is taken twice its size, as when
   * one runs out. A failed take only means a later request takes its lease itself.
   */
  private renewAhead(tenantId: string, budget: TenantBudget, now: number, nowUs: () => number): void {
    const { lease } = budget;
    if (budget.inFlight || budget.next || !lease || now >= lease.endsAtUs || lease.tokens > Math.floor(lease.granted / 4)) return;
    // Only under a steady rate: after an idle spell (a lease of one or two) the next request may
    // never come, and with others waiting their own take asks for all of them at once.
    if (lease.granted < AHEAD_MIN_GRANTED || budget.waiting > 1) return;
    // Near an empty bucket a lease taken ahead and then not needed is another instance's 429.
    if (availableTokens(budget.policy, lease.grantedAtUs, lease.tatAfter) < budget.policy.burst * NEAR_EMPTY_SHARE) return;
    const target = Math.min(speculativeCap(budget.policy), Math.max(1, budget.target) * 2);
    budget.inFlight = this.renew(tenantId, budget, now, nowUs, target)
      .catch(() => undefined)
      .finally(() => (budget.inFlight = undefined));
  }

  /**
   * One take from the shared bucket. For the requests waiting here (`ahead` unset) it becomes the
   * current lease; taken ahead (`ahead`, its size) it waits as the next one.
   */
  private async renew(tenantId: string, budget: TenantBudget, now: number, nowUs: () => number, ahead?: number): Promise<void> {
    const { policy } = budget;
    const target = budget.refusedTat !== undefined ? 1 : (ahead ?? nextLeaseTarget(policy, budget.lease, budget.target, now));
    const wanted = Math.min(policy.burst, MAX_LEASE_TOKENS, Math.max(target, ahead === undefined ? budget.waiting : 0));
    const result = await this.store.take(tenantId, policy, wanted, nowUs);
    // Taken under a policy changed meanwhile: its tokens are forfeit, the waiters lease again.
    if (budget.policy !== policy) return;
    if ('tatAfter' in result) {
      budget.target = target;
      // Its life counts from the answer, not from the clock read before the write: a write slower
      // than a lifetime (a table in trouble) must still serve the requests that waited for it.
      const taken: Lease = { granted: result.granted, tokens: result.granted, grantedAtUs: result.nowUs, endsAtUs: nowUs() + LEASE_LIFETIME_US, tatAfter: result.tatAfter };
      if (ahead === undefined) budget.lease = taken;
      else budget.next = taken;
      budget.refusedTat = undefined;
    } else {
      budget.target = 1;
      if (ahead === undefined) budget.lease = undefined;
      budget.refusedTat = result.tatBefore;
    }
  }

  private budgetOf(tenantId: string, policy: RateLimitPolicy): TenantBudget {
    const known = this.budgets.get(tenantId);
    if (known) {
      // A changed policy (an operator's override) starts over: tokens leased under the old one are forfeit.
      if (known.policy.ratePerSecond !== policy.ratePerSecond || known.policy.burst !== policy.burst) Object.assign(known, { policy, lease: undefined, refusedTat: undefined, target: 1 });
      return known;
    }
    if (this.budgets.size >= MAX_TENANTS) for (const [id, budget] of this.budgets) if (budget.waiting === 0) this.budgets.delete(id);
    const budget: TenantBudget = { policy, target: 1, waiting: 0 };
    this.budgets.set(tenantId, budget);
    return budget;
  }
}
