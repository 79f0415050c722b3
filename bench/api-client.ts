import { Agent, request as httpRequest } from 'node:http';
/** A bench client of the local API: one tenant's key, JSON in and out, a bounded wait per request. */
export interface ApiClient {
  /** Sends a request and returns the parsed body; any status but `expect` throws. */
  call<T = Record<string, unknown>>(method: string, path: string, options?: { body?: unknown; expect?: number }): Promise<T>;
}

/** Gives up on a request after this long: a stuck runtime fails the bench instead of hanging it. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Plain `node:http` over kept-alive connections rather than `fetch`: the client shares the
 * process (and the two cores) with the runtime it measures, and undici's fetch spends several
 * times the CPU of a bare request on each call, which the API's figures then paid for.
 */
export function apiClient(baseUrl: string, key: string): ApiClient {
  const base = new URL(baseUrl);
  // With an agent timeout, Node honours the server's `Keep-Alive: timeout=5` and drops an idle
  // connection a second before the server would; without one it keeps it past that, and a request
  // sent just as the server closes it fails.
  const agent = new Agent({ keepAlive: true, timeout: REQUEST_TIMEOUT_MS });
  const send = (method: string, path: string, body: string | undefined, retried = false): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
      if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
      const request = httpRequest({ host: base.hostname, port: base.port, path: `${base.pathname}${path}`, method, headers, agent, timeout: REQUEST_TIMEOUT_MS }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`${method} ${path}: no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as this request went out: the server never
        // read the request, so sending it again on a fresh connection is safe (Node's own advice).
        if (request.reusedSocket && error.code === 'ECONNRESET' && !retried) send(method, path, body, true).then(resolve, reject);
        else reject(error);
      });
      request.end(body);
    });
  return {
    async call<T>(method: string, path: string, options: { body?: unknown; expect?: number } = {}): Promise<T> {
      const { status, text } = await send(method, path, options.body === undefined ? undefined : JSON.stringify(options.body));
      const expected = options.expect ?? (method === 'POST' ? 201 : 200);
      if (status !== expected) throw new Error(`${method} ${path} answered ${status}, expected ${expected}: ${text.slice(0, 200)}`);
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
