/** A bench client of the local API: one tenant's key, JSON in and out, a bounded wait per request. */
export interface ApiClient {
  /** Sends a request and returns the parsed body; any status but `expect` throws. */
  call<T = Record<string, unknown>>(method: string, path: string, options?: { body?: unknown; expect?: number }): Promise<T>;
}

export function apiClient(baseUrl: string, key: string): ApiClient {
  return {
    async call<T>(method: string, path: string, options: { body?: unknown; expect?: number } = {}): Promise<T> {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      const expected = options.expect ?? (method === 'POST' ? 201 : 200);
      if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}, expected ${expected}: ${text.slice(0, 200)}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}

/** Polls `check` until it returns a value; throws after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
