import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs } from '../../../sdk/typescript/src/backoff.ts';

describe('backoff', () => {
  it('waits a uniform time below base · 2^retry, never above the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 0, max: 60_000 }), (retry, baseMs, extra) => {
        const maxMs = baseMs + extra;
        const wait = backoffMs(retry, { attempts: 3, baseMs, maxMs });
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(Math.min(maxMs, baseMs * 2 ** retry));
      }),
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
