import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { rateLimitRepository } from '#shared/adapters/dynamodb/rate-limit-repository';
import { spendRequest } from '#shared/services/request-budget';
import { setTenantLimits } from '#shared/services/tenant-limits';
import { provisionForTest, uniqueTenant } from '../../support/provisioned';

const SECOND = 1_000_000;
const policy = { ratePerSecond: 5, burst: 10 };

/** `count` requests of one tenant at the same instant, all in flight together. */
function flood(tenantId: string, count: number, nowUs: number) {
  return Promise.all(Array.from({ length: count }, () => rateLimitRepository.consume(tenantId, policy, () => nowUs)));
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

    const decision = await rateLimitRepository.consume(quiet, policy, () => now);

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
});
