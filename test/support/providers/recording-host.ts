import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingHost {
  /** `http://127.0.0.1:<port>`: "any host" an attacker would point an integration at. */
  url: string;
  /** Every request that reached it, method, path and headers (an Authorization header among them). */
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A loopback HTTP server that records each request and answers `200 {"ok":true}`, like any API might. */
export async function startRecordingHost(): Promise<RecordingHost> {
  const requests: RecordingHost['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers });
    request.resume();
    request.on('end', () => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
