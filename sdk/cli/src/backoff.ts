export interface RetryOptions {
  /** Tries per call, the first included. */
  attempts: number;
  /** The first retry waits up to this long; each further retry doubles the bound. */
  baseMs: number;
  /** The longest wait between two tries, `Retry-After` included. */
  maxMs: number;
}

/** A build waits at most about half a minute on an API that keeps failing. */
export const DEFAULT_RETRY: RetryOptions = { attempts: 5, baseMs: 500, maxMs: 15_000 };

/** Full jitter, as the worker SDK does: a uniform wait up to `baseMs · 2^retry`, capped, so that many builds retrying spread out. */
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
