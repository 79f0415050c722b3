import { describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '#shared/adapters/sqs/retry-soon';

describe('the delay before a failed record comes back', () => {
  it('starts at 10 s and doubles with each receive', () => {
    expect([1, 2, 3, 4, 5].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 160]);
  });

  it('never exceeds five minutes, however often the record failed', () => {
    expect(retryDelaySeconds(6)).toBe(300);
    expect(retryDelaySeconds(1_000)).toBe(300);
  });

  it('treats a missing or odd receive count as the first receive', () => {
    expect(retryDelaySeconds(Number.NaN)).toBe(10);
    expect(retryDelaySeconds(0)).toBe(10);
    expect(retryDelaySeconds(-3)).toBe(10);
  });
});
