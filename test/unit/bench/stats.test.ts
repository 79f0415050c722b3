import { describe, expect, it } from 'vitest';
import { median, percentile, summarize } from '../../../bench/stats';

describe('latency statistics', () => {
  it('takes percentiles by nearest rank, always an observed value', () => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);

    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile(sorted, 1)).toBe(100);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile([7, 9], 0.99)).toBe(9);
  });

  it('summarizes unsorted samples and says n/a (NaN) for none', () => {
    expect(summarize([30, 10, 20])).toEqual({ count: 3, p50: 20, p99: 30, max: 30 });
    const empty = summarize([]);
    expect(empty.count).toBe(0);
    expect(empty.p50).toBeNaN();
  });

  it('takes the median of an odd and an even count without mutating the input', () => {
    const samples = [5, 1, 3];
    expect(median(samples)).toBe(3);
    expect(samples).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2);
  });
});
