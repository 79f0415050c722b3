import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, emissionInterval, lagTolerance, take, type RateLimitPolicy } from '#shared/domain/rate-limit';

const SECOND = 1_000_000;
const policies = fc.record({ ratePerSecond: fc.integer({ min: 1, max: 500 }), burst: fc.integer({ min: 1, max: 200 }) });

/** Replays requests at the given times (µs, ascending) and returns the admitted times. */
function replay(policy: RateLimitPolicy, times: number[]): { admittedAt: number[]; decisions: ReturnType<typeof decide>['decision'][] } {
  let tat: number | undefined;
  const admittedAt: number[] = [];
  const decisions = [];
  for (const now of times) {
    const { decision, tatAfter } = decide(policy, now, tat);
    tat = tatAfter;
    decisions.push(decision);
    if (decision.allowed) admittedAt.push(now);
  }
  return { admittedAt, decisions };
}

describe('request budget (GCRA)', () => {
  it('admits exactly `burst` requests at once from a full bucket, then refuses with Retry-After ≥ 1', () => {
    const policy = { ratePerSecond: 10, burst: 25 };
    const now = 1_700_000_000 * SECOND;

    const { admittedAt, decisions } = replay(policy, Array.from({ length: 40 }, () => now));

    expect(admittedAt).toHaveLength(25);
    expect(decisions[0]).toMatchObject({ allowed: true, limit: 25, remaining: 24 });
    expect(decisions[24]).toMatchObject({ allowed: true, remaining: 0 });
    expect(decisions[25]).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(decisions[25].resetSeconds).toBe(3); // 25 requests at 10/s: full again after 2.5 s
  });

  it('never admits more than burst + rate × (elapsed + lag tolerance) in any window', () => {
    fc.assert(
      fc.property(policies, fc.array(fc.integer({ min: 0, max: 3 * SECOND }), { minLength: 1, maxLength: 400 }), (policy, offsets) => {
        const times = offsets.map((offset) => 1_000 * SECOND + offset).sort((a, b) => a - b);
        const { admittedAt } = replay(policy, times);
        const interval = emissionInterval(policy);
        for (let first = 0; first < admittedAt.length; first++) {
          for (let last = first; last < admittedAt.length; last++) {
            const elapsed = admittedAt[last] - admittedAt[first];
            expect(last - first + 1).toBeLessThanOrEqual(policy.burst + Math.floor((elapsed + lagTolerance(policy)) / interval));
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('admits the next request once Retry-After has passed, and reports remaining that is really available', () => {
    fc.assert(
      fc.property(policies, fc.integer({ min: 1, max: 400 }), (policy, flood) => {
        const now = 5_000 * SECOND;
        const { decisions } = replay(policy, Array.from({ length: flood }, () => now));
        const last = decisions[decisions.length - 1];
        if (last.allowed) {
          // `remaining` more requests fit right now, and not one more.
          const more = replay(policy, [...Array.from({ length: flood }, () => now), ...Array.from({ length: last.remaining + 1 }, () => now)]);
          expect(more.admittedAt).toHaveLength(flood + last.remaining);
        } else {
          const retryAt = now + last.retryAfterSeconds! * SECOND;
          const later = replay(policy, [...Array.from({ length: flood }, () => now), retryAt]);
          expect(later.decisions[later.decisions.length - 1].allowed).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('tolerates a lag of at most a tenth of the bucket, and 1 s', () => {
    expect(lagTolerance({ ratePerSecond: 50, burst: 100 })).toBe(200_000);
    expect(lagTolerance({ ratePerSecond: 1, burst: 5 })).toBe(500_000);
    expect(lagTolerance({ ratePerSecond: 1000, burst: 100_000 })).toBe(1_000_000);
  });

  it('refills at the configured rate after a quiet period', () => {
    const policy = { ratePerSecond: 2, burst: 2 };
    const start = 100 * SECOND;

    const { admittedAt } = replay(policy, [start, start, start, start + SECOND / 2, start + SECOND / 2, start + 10 * SECOND, start + 10 * SECOND, start + 10 * SECOND]);

    expect(admittedAt).toEqual([start, start, start + SECOND / 2, start + 10 * SECOND, start + 10 * SECOND]);
  });

  it('takes several tokens at once: as many as fit, then none, and a lagging bucket counts as full', () => {
    const policy = { ratePerSecond: 10, burst: 10 };
    const now = 1_700_000_000 * SECOND;
    const interval = emissionInterval(policy);

    const four = take(policy, now, undefined, 4);
    const rest = take(policy, now, four.tatAfter, 10);
    const none = take(policy, now, rest.tatAfter, 1);
    const lagging = take(policy, now, now - 10 * SECOND, 25);

    expect(four).toEqual({ granted: 4, tatAfter: now + 4 * interval });
    expect(rest).toEqual({ granted: 6, tatAfter: now + 10 * interval });
    expect(none).toEqual({ granted: 0, tatAfter: now + 10 * interval });
    expect(lagging).toEqual({ granted: 10, tatAfter: now + 10 * interval });
  });
});
