import { describe, expect, it } from 'vitest';
import { LIMIT_SETTINGS, readLimits } from '#shared/config/limits';
import { deferDelaySeconds, expiredLeases, MAX_DELAY_SECONDS } from '#shared/domain/task-fairness';

describe('limits configuration', () => {
  it('has defaults for an API like Stripe’s, and bodies of at most 1 MiB', () => {
    const limits = readLimits({});

    expect(limits).toMatchObject({ ratePerSecond: 50, burst: 100, maxBodyBytes: 1024 * 1024, tenantTaskConcurrency: 10 });
    expect(LIMIT_SETTINGS.maxBodyBytes.max).toBe(1024 * 1024);
  });

  it('reads each limit from its environment variable', () => {
    const limits = readLimits({ GATEHOUSE_RATE_LIMIT_PER_SECOND: '5', GATEHOUSE_RATE_LIMIT_BURST: '7', GATEHOUSE_MAX_BODY_BYTES: '4096', GATEHOUSE_TENANT_TASK_CONCURRENCY: '2' });

    expect(limits).toMatchObject({ ratePerSecond: 5, burst: 7, maxBodyBytes: 4096, tenantTaskConcurrency: 2 });
  });

  it.each([
    ['GATEHOUSE_MAX_BODY_BYTES', String(2 * 1024 * 1024)],
    ['GATEHOUSE_RATE_LIMIT_PER_SECOND', '0'],
    ['GATEHOUSE_RATE_LIMIT_BURST', '1.5'],
    ['GATEHOUSE_MAX_QUERY_STRING_LENGTH', 'lots'],
  ])('refuses %s=%s loudly instead of running with a surprising limit', (name, value) => {
    expect(() => readLimits({ [name]: value })).toThrow(new RegExp(`${name} must be an integer from`));
  });
});

describe('deferral of tasks over a tenant’s cap', () => {
  it('doubles the delay per deferral up to 32× the base, with jitter between half and all of it', () => {
    expect(deferDelaySeconds(2, 0, () => 0)).toBe(1);
    expect(deferDelaySeconds(2, 0, () => 0.999)).toBe(2);
    expect(deferDelaySeconds(2, 3, () => 0.999)).toBe(16);
    expect(deferDelaySeconds(2, 50, () => 0.999)).toBe(64);
    expect(deferDelaySeconds(28, 50, () => 0.999)).toBeLessThanOrEqual(MAX_DELAY_SECONDS);
  });

  it('takes back only leases that have ended', () => {
    expect(expiredLeases({ tsk_a: 1_000, tsk_b: 3_000, tsk_c: 1_999 }, 2_000).sort()).toEqual(['tsk_a', 'tsk_c']);
  });
});
