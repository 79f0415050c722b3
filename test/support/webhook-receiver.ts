import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A loopback webhook receiver whose answer each test decides: a status per request, or silence
 * (never answers), given `delayMs` after the request arrived (a slow receiver); a status alone is
 * answered with the text `ok`, or the answer names its body. It records every request it gets, as
 * it arrives.
 */
export async function startReceiver(answer: (request: number, delivery: ReceivedDelivery) => number | 'silence' | { status: number; body: string }, options: { delayMs?: number } = {}): Promise<{ url: string; received: ReceivedDelivery[]; close(): Promise<void> }> {
  const received: ReceivedDelivery[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(delivery);
      const answered = answer(received.length, delivery);
      if (answered === 'silence') return;
      const { status, body } = typeof answered === 'number' ? { status: answered, body: 'ok' } : answered;
      setTimeout(() => {
        response.writeHead(status, { 'Content-Type': 'text/plain' });
        response.end(body);
      }, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
