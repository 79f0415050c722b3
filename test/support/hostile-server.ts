import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback HTTP server that misbehaves the way third-party sites and webhook receivers can:
 * endless or trickling bodies, answers that never come, oversized headers, redirect loops and
 * redirects to elsewhere. It counts connections and requests, and notes when a client hung up
 * mid-answer, so tests can see that our side stopped reading.
 */
export type Behaviour =
  | { kind: 'endless_body'; chunkBytes?: number; contentType?: string }
  | { kind: 'trickle_body'; intervalMs?: number }
  | { kind: 'never_answer' }
  | { kind: 'huge_headers'; bytes?: number }
  | { kind: 'redirect'; location: string; status?: number };

export interface HostileServer {
  url: string;
  port: number;
  /** TCP connections accepted (a refused SSRF attempt never opens one). */
  connections: number;
  requests: { method: string; path: string }[];
  /** Answers the client stopped reading before they ended. */
  abandoned: number;
  /** Bytes written into answers. */
  bytesSent: number;
  close(): Promise<void>;
}

export async function startHostileServer(behaviour: (request: IncomingMessage) => Behaviour): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const state = { connections: 0, requests: [] as { method: string; path: string }[], abandoned: 0, bytesSent: 0 };

  const stream = (response: ServerResponse, chunk: Buffer, intervalMs: number) => {
    const tick = () => {
      if (response.destroyed || response.writableEnded) return;
      state.bytesSent += chunk.length;
      const more = response.write(chunk);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (more || intervalMs > 0) tick();
        else response.once('drain', tick);
      }, intervalMs);
      timers.add(timer);
    };
    response.on('close', () => {
      if (!response.writableEnded) state.abandoned++;
    });
    tick();
  };

  const server = createServer((request, response) => {
    state.requests.push({ method: request.method ?? '', path: request.url ?? '' });
    request.resume();
    const plan = behaviour(request);
    switch (plan.kind) {
      case 'endless_body':
        response.writeHead(200, { 'Content-Type': plan.contentType ?? 'text/html; charset=utf-8' });
        return stream(response, Buffer.alloc(plan.chunkBytes ?? 64 * 1024, '<p>more</p>\n'), 0);
      case 'trickle_body':
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return stream(response, Buffer.from('<'), plan.intervalMs ?? 50);
      case 'never_answer':
        return;
      case 'huge_headers':
        response.writeHead(200, { 'Content-Type': 'text/html', 'X-Padding': 'x'.repeat(plan.bytes ?? 128 * 1024) });
        return response.end('<html></html>');
      case 'redirect':
        response.writeHead(plan.status ?? 302, { Location: plan.location });
        return response.end();
    }
  });
  server.on('connection', (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    get abandoned() {
      return state.abandoned;
    },
    get bytesSent() {
      return state.bytesSent;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
