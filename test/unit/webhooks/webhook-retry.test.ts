import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideEndpointDisable,
  MAX_DELIVERY_ATTEMPTS,
  MAX_RETRY_DELAY_SECONDS,
  MIN_RETRY_WINDOW_SECONDS,
  nextAttemptDelaySeconds,
  nextFailingSince,
  type EndpointHealth,
} from '#shared/domain/webhook-retry';

/** Runs the schedule to exhaustion: every delay, in order, until it answers undefined. */
function fullSchedule(random: () => number): number[] {
  const delays: number[] = [];
  for (let attempt = 1; ; attempt++) {
    const delay = nextAttemptDelaySeconds(attempt, random);
    if (delay === undefined) return delays;
    delays.push(delay);
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('retry schedule', () => {
  it('doubles from 30 s to the 900 s SQS cap when the jitter is zero', () => {
    const delays = fullSchedule(() => 0);

    expect(delays.slice(0, 7)).toEqual([30, 60, 120, 240, 480, 900, 900]);
    expect(delays).toHaveLength(MAX_DELIVERY_ATTEMPTS - 1);
    expect(sum(delays)).toBe(108_030);
  });

  it('takes at most 20% off each ceiling, which still adds up to 24 hours', () => {
    const delays = fullSchedule(() => 1);

    expect(delays.slice(0, 7)).toEqual([24, 48, 96, 192, 384, 720, 720]);
    expect(sum(delays)).toBe(86_424);
    expect(sum(delays)).toBeGreaterThanOrEqual(MIN_RETRY_WINDOW_SECONDS);
  });

  it('for any random source: keeps retrying for at least 24 h, every delay a whole number of seconds within the SQS limit', () => {
    fc.assert(
      fc.property(fc.infiniteStream(fc.double()), (stream) => {
        const values = stream[Symbol.iterator]();
        const delays = fullSchedule(() => values.next().value as number);

        expect(delays).toHaveLength(MAX_DELIVERY_ATTEMPTS - 1);
        expect(sum(delays)).toBeGreaterThanOrEqual(MIN_RETRY_WINDOW_SECONDS);
        expect(sum(delays)).toBeLessThanOrEqual(31 * 60 * 60);
        for (const delay of delays) {
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(1);
          expect(delay).toBeLessThanOrEqual(MAX_RETRY_DELAY_SECONDS);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('for any well-behaved random source, each delay lies between 80% and 100% of its ceiling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_DELIVERY_ATTEMPTS - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const ceiling = Math.min(30 * 2 ** (attempt - 1), 900);
        const delay = nextAttemptDelaySeconds(attempt, () => r)!;

        expect(delay).toBeGreaterThanOrEqual(0.8 * ceiling);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }),
    );
  });

  it('gives up after the last attempt, and on every later attempt number', () => {
    expect(nextAttemptDelaySeconds(MAX_DELIVERY_ATTEMPTS - 1, Math.random)).toBeTypeOf('number');
    expect(nextAttemptDelaySeconds(MAX_DELIVERY_ATTEMPTS, Math.random)).toBeUndefined();
    expect(nextAttemptDelaySeconds(MAX_DELIVERY_ATTEMPTS + 1000, Math.random)).toBeUndefined();
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects attempt number %s', (attempt) => {
    expect(() => nextAttemptDelaySeconds(attempt, Math.random)).toThrow(RangeError);
  });
});

describe('auto-disable', () => {
  const now = new Date('2025-06-10T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const DAY = 24 * 60 * 60 * 1000;

  it.each<[string, Omit<EndpointHealth, 'now'>, ReturnType<typeof decideEndpointDisable>]>([
    ['healthy endpoint', { lastSuccessAt: ago(1000), lastStatus: 200 }, { disable: false }],
    ['410 Gone, even on the first failure', { lastSuccessAt: ago(1000), failingSince: now, lastStatus: 410 }, { disable: true, reason: 'gone' }],
    ['410 Gone on a brand-new endpoint', { lastStatus: 410 }, { disable: true, reason: 'gone' }],
    ['failing for 4 days 23 hours', { lastSuccessAt: ago(6 * DAY), failingSince: ago(5 * DAY - 3_600_000), lastStatus: 500 }, { disable: false }],
    ['failing for exactly 5 days', { lastSuccessAt: ago(6 * DAY), failingSince: ago(5 * DAY), lastStatus: 500 }, { disable: true, reason: 'failing_for_5_days' }],
    ['failing for 5 days, never succeeded, timing out', { failingSince: ago(5 * DAY + 1) }, { disable: true, reason: 'failing_for_5_days' }],
    ['failing for 30 days with a 404', { failingSince: ago(30 * DAY), lastStatus: 404 }, { disable: true, reason: 'failing_for_5_days' }],
    ['stale streak: success after failingSince', { lastSuccessAt: ago(DAY), failingSince: ago(6 * DAY), lastStatus: 500 }, { disable: false }],
    ['success at the same instant the streak started', { lastSuccessAt: ago(6 * DAY), failingSince: ago(6 * DAY), lastStatus: 503 }, { disable: false }],
    ['no failing streak', { lastSuccessAt: ago(10 * DAY), lastStatus: 500 }, { disable: false }],
  ])('%s', (_, health, expected) => {
    expect(decideEndpointDisable({ ...health, now })).toEqual(expected);
  });

  it('a success ends the failing streak; a failure starts it once and keeps its start', () => {
    const earlier = ago(DAY);

    expect(nextFailingSince({ ok: true, failingSince: earlier, now })).toBeUndefined();
    expect(nextFailingSince({ ok: false, now })).toEqual(now);
    expect(nextFailingSince({ ok: false, failingSince: earlier, now })).toEqual(earlier);
  });
});
