import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emissionInterval, lagTolerance, take, type RateLimitPolicy } from '#shared/domain/rate-limit';
import { LEASE_LIFETIME_US, LeasedBudgets, MAX_SPECULATIVE_TOKENS, nextLeaseTarget, speculativeCap, type BucketStore, type Lease, type TakeResult } from '#shared/domain/rate-limit-lease';

const SECOND = 1_000_000;
const START = 1_700_000_000 * SECOND;

/**
 * The shared bucket in memory, implementing the take the DynamoDB repository implements with
 * conditional writes. Each take yields to the event loop first, as a write's round trip does, so
 * requests of one instance overlap it.
 */
class MemoryBucket implements BucketStore {
  readonly tats = new Map<string, number>();
  /** Tokens asked for, per take (one take is one write). */
  readonly asked: number[] = [];
  granted = 0;

  /** `elapse` moves the test's clock while a take is on its way (a slow write). */
  constructor(private readonly elapse: () => void = () => undefined) {}

  async take(tenantId: string, policy: RateLimitPolicy, wanted: number, nowUs: () => number): Promise<TakeResult> {
    await new Promise((resolve) => setImmediate(resolve));
    const now = nowUs();
    this.elapse();
    this.asked.push(wanted);
    const before = this.tats.get(tenantId);
    const result = take(policy, now, before, wanted);
    if (result.granted === 0) return { nowUs: now, tatBefore: before! };
    this.tats.set(tenantId, result.tatAfter!);
    this.granted += result.granted;
    return { granted: result.granted, nowUs: now, tatAfter: result.tatAfter! };
  }
}

function clock(start = START) {
  let now = start;
  return { now: () => now, advance: (us: number) => (now += us) };
}

const lease = (fields: Partial<Lease>): Lease => ({ granted: 4, tokens: 0, grantedAtUs: START, endsAtUs: START + LEASE_LIFETIME_US, tatAfter: START + 4 * 1000, ...fields });

describe('leases of the shared request budget', () => {
  it('admits exactly the burst out of many concurrent requests of one instance, in a few writes, with Retry-After for the rest', async () => {
    const bucket = new MemoryBucket();
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 5, burst: 10 };
    const time = clock();

    const decisions = await Promise.all(Array.from({ length: 25 }, () => budgets.spend('t', policy, time.now)));

    const admitted = decisions.filter((decision) => decision.allowed);
    expect(admitted).toHaveLength(10);
    expect(admitted.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const decision of decisions.filter((candidate) => !candidate.allowed)) expect(decision).toMatchObject({ remaining: 0, limit: 10, retryAfterSeconds: 1 });
    // The first request's own lease, one for the 24 that waited on it (9 fit), and one refusal.
    expect(bucket.asked.length).toBeLessThanOrEqual(4);
  });

  it('admits exactly the burst across instances sharing one bucket', async () => {
    const bucket = new MemoryBucket();
    const instances = [new LeasedBudgets(bucket), new LeasedBudgets(bucket), new LeasedBudgets(bucket)];
    const policy = { ratePerSecond: 5, burst: 10 };
    const time = clock();

    const decisions = await Promise.all(Array.from({ length: 25 }, (_, index) => instances[index % 3].spend('t', policy, time.now)));

    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
  });

  it('never admits more than the bucket granted, nor more than burst + rate × (window + lease lifetime + lag) in any window', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ ratePerSecond: fc.integer({ min: 1, max: 200 }), burst: fc.integer({ min: 1, max: 120 }) }),
        fc.array(fc.record({ instance: fc.integer({ min: 0, max: 3 }), gapUs: fc.integer({ min: 0, max: SECOND / 4 }), together: fc.integer({ min: 1, max: 6 }) }), { minLength: 1, maxLength: 60 }),
        async (policy, arrivals) => {
          const bucket = new MemoryBucket();
          const instances = Array.from({ length: 4 }, () => new LeasedBudgets(bucket));
          const time = clock();
          const admittedAt: number[] = [];
          for (const { instance, gapUs, together } of arrivals) {
            time.advance(gapUs);
            const decisions = await Promise.all(Array.from({ length: together }, () => instances[instance].spend('t', policy, time.now)));
            for (const decision of decisions) if (decision.allowed) admittedAt.push(time.now());
          }
          expect(admittedAt.length).toBeLessThanOrEqual(bucket.granted);
          const slack = LEASE_LIFETIME_US + lagTolerance(policy);
          for (let first = 0; first < admittedAt.length; first++) {
            for (let last = first; last < admittedAt.length; last++) {
              expect(last - first + 1).toBeLessThanOrEqual(policy.burst + Math.floor((admittedAt[last] - admittedAt[first] + slack) / emissionInterval(policy)));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('grows leases while they run out before they end: about one write per ten requests under steady load', async () => {
    const bucket = new MemoryBucket();
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 1000, burst: 2000 };
    const time = clock();

    for (let request = 0; request < 200; request++) {
      expect((await budgets.spend('t', policy, time.now)).allowed).toBe(true);
      time.advance(1000);
    }

    expect(bucket.asked.slice(0, 5)).toEqual([1, 2, 4, 8, 10]);
    expect(Math.max(...bucket.asked)).toBe(MAX_SPECULATIVE_TOKENS);
    expect(bucket.asked.length).toBeLessThanOrEqual(25);
  });

  it('takes the next lease before the current one runs out: under a steady rate requests stop waiting for writes', async () => {
    // A write takes a few turns of the event loop; a token from a lease takes none.
    const bucket = new (class extends MemoryBucket {
      override async take(...args: Parameters<MemoryBucket['take']>) {
        for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
        return super.take(...args);
      }
    })();
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 1000, burst: 2000 };
    const time = clock();
    let waited = 0;

    for (let request = 0; request < 200; request++) {
      const spending = budgets.spend('t', policy, time.now);
      const outcome = await Promise.race([spending.then(() => 'lease'), new Promise((resolve) => setImmediate(() => resolve('waited')))]);
      if (outcome === 'waited' && request >= 20) waited += 1;
      expect((await spending).allowed).toBe(true);
      time.advance(1000);
      // Requests a millisecond apart: the event loop turns between them, as a write does three times.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    }

    expect(waited).toBe(0);
    // Still about one write per ten requests, and never a lease larger than the others.
    expect(bucket.asked.length).toBeLessThanOrEqual(25);
    expect(Math.max(...bucket.asked)).toBe(MAX_SPECULATIVE_TOKENS);
  });

  it('asks for every request that waited on the last write at once, and spends what it took on them', async () => {
    const bucket = new MemoryBucket();
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 10_000, burst: 100_000 };
    const time = clock();
    await budgets.spend('t', policy, time.now);

    const decisions = await Promise.all(Array.from({ length: 20 }, () => budgets.spend('t', policy, time.now)));

    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    // The first of the twenty leases while it is alone (2: the last lease ran out); the 18 left
    // waited on that write and are asked for together.
    expect(bucket.asked).toEqual([1, 2, 18]);
  });

  it('forfeits a lease’s unspent tokens when it ends, and starts at one again after an idle spell', async () => {
    const bucket = new MemoryBucket();
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 1000, burst: 2000 };
    const time = clock();
    for (let request = 0; request < 4; request++) {
      await budgets.spend('t', policy, time.now);
      time.advance(1000);
    }
    expect(bucket.asked).toEqual([1, 2, 4]); // the last lease holds 3 unspent tokens

    time.advance(LEASE_LIFETIME_US);
    await budgets.spend('t', policy, time.now);
    time.advance(3 * LEASE_LIFETIME_US);
    await budgets.spend('t', policy, time.now);

    // Ended unspent (1 of 4 used): half of that, at least 1; then idle: 1.
    expect(bucket.asked).toEqual([1, 2, 4, 1, 1]);
  });

  it('serves the requests that waited on a write slower than a lease’s lifetime', async () => {
    const time = clock();
    const bucket = new MemoryBucket(() => time.advance(2 * LEASE_LIFETIME_US));
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 100, burst: 100 };

    const decisions = await Promise.all(Array.from({ length: 3 }, () => budgets.spend('t', policy, time.now)));

    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(bucket.asked).toEqual([1, 2]);
  });

  it('refuses without a write until the refused TAT leaves room, then asks the bucket again', async () => {
    const bucket = new MemoryBucket();
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 2, burst: 2 };
    const time = clock();
    await budgets.spend('t', policy, time.now);
    await budgets.spend('t', policy, time.now);
    const refused = await budgets.spend('t', policy, time.now);
    const writes = bucket.asked.length;

    const again = await budgets.spend('t', policy, time.now);
    time.advance(SECOND / 2);
    const later = await budgets.spend('t', policy, time.now);

    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(again).toMatchObject({ allowed: false });
    expect(bucket.asked.length).toBe(writes + 1);
    expect(later).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('reports as remaining the bucket’s tokens plus those the lease still holds', async () => {
    const bucket = new MemoryBucket();
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 100, burst: 100 };
    const time = clock();

    const first = await budgets.spend('t', policy, time.now);
    const second = await budgets.spend('t', policy, time.now); // a lease of 2: one spent, one held
    const third = await budgets.spend('t', policy, time.now);

    expect([first.remaining, second.remaining, third.remaining]).toEqual([99, 98, 97]);
  });

  it('starts over with a changed policy (an operator’s override): the old lease is not spent', async () => {
    const bucket = new MemoryBucket();
    const budgets = new LeasedBudgets(bucket);
    const time = clock();
    await budgets.spend('t', { ratePerSecond: 1000, burst: 2000 }, time.now);
    await budgets.spend('t', { ratePerSecond: 1000, burst: 2000 }, time.now);

    const decision = await budgets.spend('t', { ratePerSecond: 1000, burst: 500 }, time.now);

    expect(decision.limit).toBe(500);
    expect(bucket.asked).toEqual([1, 2, 1]);
  });

  it('keeps tenants apart', async () => {
    const bucket = new MemoryBucket();
    const budgets = new LeasedBudgets(bucket);
    const policy = { ratePerSecond: 1, burst: 3 };
    const time = clock();
    await Promise.all(Array.from({ length: 10 }, () => budgets.spend('noisy', policy, time.now)));

    expect(await budgets.spend('quiet', policy, time.now)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('fails every waiting request when the bucket cannot be reached (fail closed), and recovers after', async () => {
    let down = true;
    const bucket = new MemoryBucket();
    const flaky: BucketStore = { take: async (...args) => (down ? Promise.reject(new Error('table unreachable')) : bucket.take(...args)) };
    const budgets = new LeasedBudgets(flaky);
    const policy = { ratePerSecond: 10, burst: 10 };
    const time = clock();

    const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => budgets.spend('t', policy, time.now)));
    down = false;

    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(await budgets.spend('t', policy, time.now)).toMatchObject({ allowed: true });
  });

  describe('next lease size', () => {
    const policy = { ratePerSecond: 1000, burst: 1000 };

    it('is 1 with no lease yet, after an idle lifetime, or when the bucket was near empty', () => {
      expect(nextLeaseTarget(policy, undefined, 8, START)).toBe(1);
      expect(nextLeaseTarget(policy, lease({}), 8, START + 2 * LEASE_LIFETIME_US)).toBe(1);
      // 4 tokens taken at 1000/s left 996 of 1000; a TAT 800 ms ahead leaves 200, under a quarter.
      expect(nextLeaseTarget(policy, lease({ tatAfter: START + 800_000 }), 8, START + 1000)).toBe(1);
    });

    it('doubles when the lease ran out before it ended, up to a tenth of the burst and at most 10', () => {
      expect(nextLeaseTarget(policy, lease({}), 4, START + 1000)).toBe(8);
      expect(nextLeaseTarget(policy, lease({}), 8, START + 1000)).toBe(10);
      expect(speculativeCap({ ratePerSecond: 10, burst: 30 })).toBe(3);
      expect(speculativeCap({ ratePerSecond: 10, burst: 5 })).toBe(1);
    });

    it('shrinks to half of what an ended lease used', () => {
      expect(nextLeaseTarget(policy, lease({ granted: 10, tokens: 4 }), 10, START + LEASE_LIFETIME_US + 1)).toBe(3);
      expect(nextLeaseTarget(policy, lease({ granted: 10, tokens: 9 }), 10, START + LEASE_LIFETIME_US + 1)).toBe(1);
    });
  });
});
