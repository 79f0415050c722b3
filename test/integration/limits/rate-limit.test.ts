import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { rateLimitRepository } from '#shared/adapters/dynamodb/rate-limit-repository';
import { admitted as admittedDecision, rejected, type RateLimitDecision } from '#shared/domain/rate-limit';
import { LeasedBudgets, type BucketStore, type TakeResult } from '#shared/domain/rate-limit-lease';
import { spendRequest } from '#shared/services/request-budget';
import { setTenantLimits } from '#shared/services/tenant-limits';
import { provisionForTest, uniqueTenant } from '../../support/provisioned';

const SECOND = 1_000_000;
const policy = { ratePerSecond: 5, burst: 10 };

/** One request's decision from a take of one token. */
function decisionOf(result: TakeResult): RateLimitDecision {
  return 'tatAfter' in result ? admittedDecision(policy, result.nowUs, result.tatAfter) : rejected(policy, result.nowUs, result.tatBefore);
}

/** `count` takes of one token each by one tenant at the same instant, all in flight together. */
async function flood(tenantId: string, count: number, nowUs: number) {
  return (await Promise.all(Array.from({ length: count }, () => rateLimitRepository.take(tenantId, policy, 1, () => nowUs)))).map(decisionOf);
}

/** The repository, counting its takes (each one conditional write, two for a bucket found idle). */
function countingStore(): BucketStore & { takes: number } {
  const store = { takes: 0, take: (...args: Parameters<BucketStore['take']>) => ((store.takes += 1), rateLimitRepository.take(...args)) };
  return store;
}

describe('request budgets on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('ratelimit');
  });

  it('admits exactly the burst out of many parallel requests, and tells the others when to retry', async () => {
    const tenant = uniqueTenant();
    const now = Date.now() * 1000;

    const decisions = await flood(tenant, 25, now);

    const admitted = decisions.filter((decision) => decision.allowed);
    expect(admitted).toHaveLength(policy.burst);
    expect(admitted.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const decision of decisions.filter((candidate) => !candidate.allowed)) {
      expect(decision).toMatchObject({ remaining: 0, limit: policy.burst, retryAfterSeconds: 1 });
    }
  });

  it('never admits more than burst + rate × elapsed across waves of parallel requests', async () => {
    const tenant = uniqueTenant();
    const start = Math.floor(Date.now() / 1000) * SECOND;
    let admitted = 0;

    for (const offset of [0, SECOND / 2, SECOND, 3 * SECOND]) {
      admitted += (await flood(tenant, 25, start + offset)).filter((decision) => decision.allowed).length;
    }

    // 10 at once, then 5/s for 3 s: 25, and the refill is really granted (the bucket never lagged).
    expect(admitted).toBe(policy.burst + 3 * policy.ratePerSecond);
  });

  it('admits every one of many concurrent requests that fit the budget, on the real clock', async () => {
    const tenant = uniqueTenant();
    await setTenantLimits(tenant, { rate_per_second: '100', burst: '1000', task_concurrency: undefined });

    const decisions = await Promise.all(Array.from({ length: 25 }, () => spendRequest(tenant)));

    expect(decisions.filter((decision) => !decision.allowed)).toEqual([]);
  });

  it('keeps tenants apart: one tenant’s flood leaves another’s budget whole', async () => {
    const noisy = uniqueTenant('noisy');
    const quiet = uniqueTenant('quiet');
    const now = Date.now() * 1000;
    await flood(noisy, 30, now);

    const decision = decisionOf(await rateLimitRepository.take(quiet, policy, 1, () => now));

    expect(decision).toMatchObject({ allowed: true, remaining: policy.burst - 1 });
  });

  it('keeps one small item per tenant that DynamoDB TTL removes once the bucket is full again', async () => {
    const tenant = uniqueTenant();
    const now = Date.now() * 1000;
    await flood(tenant, 3, now);

    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.rateLimitBucket(tenant), ConsistentRead: true }));

    expect(Item).toMatchObject({ pk: `RATELIMIT#${tenant}`, entity: 'rate_limit_bucket', tat_us: now + 3 * (SECOND / policy.ratePerSecond) });
    expect(Item!.expires_at_epoch).toBeGreaterThan(now / SECOND);
    expect(Item!.expires_at_epoch).toBeLessThanOrEqual(Math.ceil(now / SECOND) + 2 + 60);
  });

  it('takes several tokens in one write, fewer when fewer are left, and none from an empty bucket', async () => {
    const tenant = uniqueTenant();
    const now = Date.now() * 1000;
    const interval = SECOND / policy.ratePerSecond;

    const four = await rateLimitRepository.take(tenant, policy, 4, () => now);
    const rest = await rateLimitRepository.take(tenant, policy, 10, () => now);
    const none = await rateLimitRepository.take(tenant, policy, 3, () => now);

    expect(four).toEqual({ granted: 4, nowUs: now, tatAfter: now + 4 * interval });
    expect(rest).toEqual({ granted: 6, nowUs: now, tatAfter: now + 10 * interval });
    expect(none).toEqual({ nowUs: now, tatBefore: now + 10 * interval });
  });

  describe('leased by several instances', () => {
    it('admits exactly the burst out of 25 parallel requests spread over three instances', async () => {
      const tenant = uniqueTenant();
      const now = Date.now() * 1000;
      const instances = [new LeasedBudgets(rateLimitRepository), new LeasedBudgets(rateLimitRepository), new LeasedBudgets(rateLimitRepository)];

      const decisions = await Promise.all(Array.from({ length: 25 }, (_, index) => instances[index % 3].spend(tenant, policy, () => now)));

      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(policy.burst);
      for (const decision of decisions.filter((candidate) => !candidate.allowed)) expect(decision).toMatchObject({ remaining: 0, retryAfterSeconds: 1 });
    });

    it('never admits more than burst + rate × elapsed across waves, whichever instance serves a request', async () => {
      const tenant = uniqueTenant();
      const start = Math.floor(Date.now() / 1000) * SECOND;
      const instances = [new LeasedBudgets(rateLimitRepository), new LeasedBudgets(rateLimitRepository)];
      let admitted = 0;

      for (const offset of [0, SECOND / 2, SECOND, 3 * SECOND]) {
        const wave = await Promise.all(Array.from({ length: 25 }, (_, index) => instances[index % 2].spend(tenant, policy, () => start + offset)));
        admitted += wave.filter((decision) => decision.allowed).length;
      }

      // Near its limit an instance leases only for requests already waiting: nothing is forfeit.
      expect(admitted).toBe(policy.burst + 3 * policy.ratePerSecond);
    });

    it('spends about one write per ten requests of a tenant well within its budget', async () => {
      const tenant = uniqueTenant();
      const store = countingStore();
      const budgets = new LeasedBudgets(store);
      const generous = { ratePerSecond: 1000, burst: 2000 };
      const start = Date.now() * 1000;
      let now = start;

      for (let request = 0; request < 100; request++) {
        expect((await budgets.spend(tenant, generous, () => now)).allowed).toBe(true);
        now += 1000;
      }

      expect(store.takes).toBeLessThanOrEqual(15);
      const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.rateLimitBucket(tenant), ConsistentRead: true }));
      // Every token taken is in the stored TAT: leased and not spent still counts as spent.
      expect(Item!.tat_us).toBeGreaterThanOrEqual(start + 100 * (SECOND / generous.ratePerSecond));
    });
  });
});
