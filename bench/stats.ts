/** Latency summary of one measured series, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * The `q` quantile (0..1) by the nearest-rank method: always a value that was observed, so a p99
 * of 100 samples is the 99th smallest, not an interpolation between two requests.
 */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  if (q <= 0) return sorted[0];
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, rank) - 1];
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.length ? sorted[sorted.length - 1] : Number.NaN };
}

export function median(samples: readonly number[]): number {
  return percentile([...samples].sort((a, b) => a - b), 0.5);
}
