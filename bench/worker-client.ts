import { Agent, request as httpRequest } from 'node:http';

/** What a worker's call answered: the status and the parsed body (none on a 204). */
export interface WorkerAnswer<T> {
  status: number;
  body: T | undefined;
}

/** A worker of a custom agent speaking the protocol over HTTP (docs/workers.md), as the SDK does. */
export interface WorkerClient {
  /** POSTs `body` with the Idempotency-Key the SDK would send; any status not in `expect` throws. */
  post<T = Record<string, unknown>>(path: string, body: unknown, idempotencyKey: string, expect: readonly number[]): Promise<WorkerAnswer<T>>;
}

/** Above the longest claim wait (20 s) with room for a busy machine; a stuck runtime still fails the phase. */
const REQUEST_TIMEOUT_MS = 40_000;
/**
 * The agent's own timeout (as in bench/api-client.ts, it makes Node honour the server's
 * `Keep-Alive: timeout=5`), kept unlike the request's: Node gives a reused socket the request's
 * timeout only when the two differ, and otherwise leaves it at the 4 s of its idle keep-alive,
 * which cut a 20 s claim at 4 s.
 */
const AGENT_TIMEOUT_MS = 30_000;

/**
 * Like bench/api-client.ts (plain `node:http`, kept-alive connections, the CPU it spends kept
 * small), but a claim answers 200 or 204, so the status comes back instead of one expected status.
 */
export function workerClient(baseUrl: string, key: string): WorkerClient {
  const base = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, timeout: AGENT_TIMEOUT_MS });
  const send = (path: string, text: string, idempotencyKey: string, retried = false): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), 'Idempotency-Key': idempotencyKey };
      const request = httpRequest({ host: base.hostname, port: base.port, path: `${base.pathname}${path}`, method: 'POST', headers, agent, timeout: REQUEST_TIMEOUT_MS }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`POST ${path}: no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection closed by the server as the request went out was never read: safe to send again.
        if (request.reusedSocket && error.code === 'ECONNRESET' && !retried) send(path, text, idempotencyKey, true).then(resolve, reject);
        else reject(error);
      });
      request.end(text);
    });
  return {
    async post<T>(path: string, body: unknown, idempotencyKey: string, expect: readonly number[]): Promise<WorkerAnswer<T>> {
      const { status, text } = await send(path, JSON.stringify(body), idempotencyKey);
      if (!expect.includes(status)) throw new Error(`POST ${path} answered ${status}, expected ${expect.join(' or ')}: ${text.slice(0, 200)}`);
      return { status, body: text ? (JSON.parse(text) as T) : undefined };
    },
  };
}
