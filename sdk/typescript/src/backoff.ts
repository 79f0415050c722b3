export interface RetryOptions {
  /** Tries per call, the first included. */
  attempts: number;
  /** The first retry waits up to this long; each further retry doubles the bound. */
  baseMs: number;
  /** The longest wait between two tries, `Retry-After` included. */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 6, baseMs: 250, maxMs: 15_000 };

/** Full jitter: a uniform wait up to `baseMs · 2^retry`, capped, so many workers retrying spread out. */
export function backoffMs(retry: number, { baseMs, maxMs }: RetryOptions): number {
  return Math.random() * Math.min(maxMs, baseMs * 2 ** retry);
}

/** A `Retry-After` header (delta-seconds or an HTTP date) in milliseconds from now, or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
