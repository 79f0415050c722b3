/** How a call to DynamoDB is tried again: attempts in all, and the exponential wait's base and cap. */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Full jitter (a random wait up to the retry's exponential cap), so that callers refused together
 * do not come back together. `retry` counts from 0 for the wait after the first attempt.
 */
export function fullJitterBackoff(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>): Promise<void> {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
}
