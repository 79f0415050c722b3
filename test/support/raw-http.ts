import { Agent, request } from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent exactly as given (no URL normalisation), so `..`, `%00` and bad escapes reach the server. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * An HTTP client without the conveniences of fetch: the path is not normalised, headers go out
 * as given, and a streaming answer (text/event-stream) is cut after its headers. Bounded by a
 * timeout. For fuzzing and the security tests.
 */
export function rawClient(origin: string, { maxSockets = 4, timeoutMs = 15_000 } = {}) {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets });
  const send = (input: RawRequest): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      // Framed explicitly: Node sends a GET or DELETE body without Content-Length otherwise.
      const headers = input.body === undefined ? input.headers : { ...input.headers, 'Content-Length': String(Buffer.byteLength(input.body)) };
      const req = request({ host: hostname, port, method: input.method, path: input.path, headers, agent, timeout: timeoutMs }, (res) => {
        if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms: ${input.method} ${input.path}`)));
      req.on('error', reject);
      req.end(input.body);
    });
  return { send, close: () => agent.destroy() };
}
