import type { Server } from 'node:http';

/** Starts `server` on a free loopback port: its `http://127.0.0.1:<port>` endpoint, and a close that drops open connections. */
export async function listenOnLoopback(server: Server): Promise<{ endpoint: string; close: () => Promise<void> }> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}
