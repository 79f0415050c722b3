import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { verify as verifyGithubSignature } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliverWebhook } from '#shared/adapters/http/deliver-webhook';
import { poolKey } from '#shared/adapters/http/delivery-connections';
import { buildWebhookBody, signWebhook, standardWebhooksVerifierSecret } from '#shared/domain/webhook-signature';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  localAddress: string;
}

const HOST = 'hooks.example.test';
const secret = 'subscription-secret';
const body = buildWebhookBody({ event_id: 'evt_1', type: 'task.complete', created_at: '2025-01-01T00:00:00.000Z', data: { task_id: 'tsk_1' } });

let server: Server;
let port: number;
let received: Received[] = [];
/** Connections the test server accepted, and the requests each has carried. */
let connections = 0;
const requestsOn = new WeakMap<object, number>();

/** A DNS stand-in that sends HOST to loopback, where the test server listens. */
const toLoopback = () => vi.fn(async (_host: string) => ['127.0.0.1']);

beforeAll(async () => {
  server = createHttpServer((req, res) => {
    requestsOn.set(req.socket, (requestsOn.get(req.socket) ?? 0) + 1);
    // A receiver that closed a kept connection just as the next request came on it.
    if (req.url === '/drop-reused' && requestsOn.get(req.socket)! > 1) {
      received.push({ path: '(dropped)', headers: req.headers, body: '', localAddress: '' });
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), localAddress: req.socket.localAddress ?? '' });
      if (req.url === '/hang') return; // never answers
      if (req.url === '/huge') {
        // An endless 200: the deliverer must stop reading, not wait for the end.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        const pump = () => {
          while (res.write(chunk)) {
            /* fill the buffer */
          }
        };
        res.on('drain', pump);
        pump();
        return;
      }
      const status = { '/ok': 204, '/drop-reused': 204, '/fail': 500, '/gone': 410, '/moved': 302 }[req.url ?? ''] ?? 404;
      res.writeHead(status, status === 302 ? { Location: 'http://169.254.169.254/' } : {}).end('answer');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
});

function deliver(path: string, overrides: Partial<Parameters<typeof deliverWebhook>[0]> = {}) {
  const headers = signWebhook({ body, eventId: 'evt_1', eventType: 'task.complete', timestamp: new Date(), secrets: { current: secret } });
  return deliverWebhook({ url: `http://${HOST}:${port}${path}`, body, headers, allowLoopback: true, resolve: toLoopback(), timeoutMs: 2000, ...overrides });
}

describe('deliverWebhook', () => {
  it('succeeds on 2xx, connecting to the pinned address with the original Host and the signed headers', async () => {
    const result = await deliver('/ok');

    expect(result).toMatchObject({ ok: true, statusCode: 204, gone: false });
    expect(result.error).toBeUndefined();
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.localAddress).toBe('127.0.0.1');
    expect(request.headers.host).toBe(`${HOST}:${port}`);
    expect(request.body).toBe(body);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('Gatehouse-Webhooks/1.0');
    expect(request.headers['x-service-delivery']).toBe('evt_1');
    expect(request.headers['x-service-event']).toBe('task.complete');
    expect(await verifyGithubSignature(secret, request.body, request.headers['x-service-signature'] as string)).toBe(true);
    const standard = new Webhook(standardWebhooksVerifierSecret(secret));
    expect(standard.verify(request.body, request.headers as Record<string, string>)).toEqual(JSON.parse(body));
  });

  it('resolves the name once, so a rebinding DNS answer after the check is never used', async () => {
    const rebinding = vi.fn().mockResolvedValueOnce(['127.0.0.1']).mockResolvedValue(['10.0.0.1']);

    const result = await deliver('/ok', { resolve: rebinding });

    expect(result.ok).toBe(true);
    expect(rebinding).toHaveBeenCalledTimes(1);
    expect(received[0].localAddress).toBe('127.0.0.1');
  });

  it('reports 500 as a failure', async () => {
    const result = await deliver('/fail');

    expect(result).toMatchObject({ ok: false, statusCode: 500, gone: false, failure: 'http_status', error: 'HTTP 500' });
  });

  it('reports 410 as gone', async () => {
    const result = await deliver('/gone');

    expect(result).toMatchObject({ ok: false, statusCode: 410, gone: true });
  });

  it('does not follow redirects: a 3xx is a failure', async () => {
    const result = await deliver('/moved');

    expect(result).toMatchObject({ ok: false, statusCode: 302, gone: false });
    expect(received).toHaveLength(1);
  });

  it('times out a server that never answers', async () => {
    const result = await deliver('/hang', { timeoutMs: 300 });

    expect(result).toMatchObject({ ok: false, gone: false, failure: 'timeout' });
    expect(result.statusCode).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
    expect(result.latencyMs).toBeLessThan(1500);
  });

  it('times out a DNS lookup that never answers', async () => {
    const result = await deliver('/ok', { timeoutMs: 300, resolve: () => new Promise<string[]>(() => {}) });

    expect(result).toMatchObject({ ok: false, failure: 'timeout' });
    expect(received).toHaveLength(0);
  });

  it('stops reading an endless response body and keeps the status', async () => {
    const result = await deliver('/huge', { timeoutMs: 5000 });

    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(result.latencyMs).toBeLessThan(2000);
  });

  it('reports a refused connection without throwing', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const result = await deliverWebhook({ url: `http://${HOST}:${closedPort}/ok`, body, headers: {}, allowLoopback: true, resolve: toLoopback() });

    expect(result).toMatchObject({ ok: false, gone: false, failure: 'network', error: 'ECONNREFUSED' });
  });

  it('refuses a forbidden address without sending anything', async () => {
    const result = await deliver('/ok', { resolve: async () => ['10.0.0.1'] });

    expect(result).toMatchObject({ ok: false, gone: false, failure: 'blocked_url' });
    expect(received).toHaveLength(0);
  });

  it('refuses loopback unless allowed', async () => {
    const result = await deliver('/ok', { url: `https://${HOST}:${port}/ok`, allowLoopback: false });

    expect(result).toMatchObject({ ok: false, failure: 'blocked_url' });
    expect(received).toHaveLength(0);
  });

  it('over https, connects to the pinned address and sends the URL hostname as SNI', async () => {
    // A raw TCP listener: it sees the TLS ClientHello, whose server_name extension is plaintext.
    let clientHello: Buffer = Buffer.alloc(0);
    let peer = '';
    const tls = createTcpServer((socket) => {
      peer = socket.localAddress ?? '';
      socket.once('data', (chunk: Buffer) => {
        clientHello = chunk;
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const tlsPort = (tls.address() as AddressInfo).port;

    const result = await deliverWebhook({ url: `https://${HOST}:${tlsPort}/ok`, body, headers: {}, allowLoopback: true, resolve: toLoopback(), timeoutMs: 2000 });
    await new Promise<void>((resolve) => tls.close(() => resolve()));

    expect(result).toMatchObject({ ok: false, failure: 'network' });
    expect(peer).toBe('127.0.0.1');
    expect(clientHello[0]).toBe(0x16); // TLS handshake record
    expect(clientHello.includes(Buffer.from(HOST, 'ascii'))).toBe(true);
  });

  describe('kept-alive connections', () => {
    /** New connections the server accepted while `work` ran. */
    async function connectionsOpenedBy(work: () => Promise<unknown>): Promise<number> {
      const before = connections;
      await work();
      return connections - before;
    }

    it('reuses the connection of an ended response for the next delivery to the same address', async () => {
      const opened = await connectionsOpenedBy(async () => {
        expect((await deliver('/ok', { url: `http://reuse.example.test:${port}/ok` })).ok).toBe(true);
        expect((await deliver('/fail', { url: `http://reuse.example.test:${port}/fail` })).statusCode).toBe(500);
        expect((await deliver('/ok', { url: `http://reuse.example.test:${port}/ok` })).ok).toBe(true);
      });

      expect(opened).toBe(1);
      expect(received.map((request) => request.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive']);
    });

    it('never shares a connection between host names, even at the same address', async () => {
      const opened = await connectionsOpenedBy(async () => {
        await deliver('/ok', { url: `http://one.example.test:${port}/ok` });
        await deliver('/ok', { url: `http://two.example.test:${port}/ok` });
      });

      expect(opened).toBe(2);
      expect(received.map((request) => request.headers.host)).toEqual([`one.example.test:${port}`, `two.example.test:${port}`]);
    });

    it('closes a connection whose response was cut short instead of reusing it', async () => {
      const opened = await connectionsOpenedBy(async () => {
        expect((await deliver('/huge', { url: `http://cut.example.test:${port}/huge`, timeoutMs: 5000 })).statusCode).toBe(200);
        expect((await deliver('/ok', { url: `http://cut.example.test:${port}/ok` })).ok).toBe(true);
      });

      expect(opened).toBe(2);
    });

    it('sends once more on a fresh connection when the receiver had closed the kept one', async () => {
      const url = `http://stale.example.test:${port}/drop-reused`;
      expect((await deliver('/drop-reused', { url })).ok).toBe(true);

      const opened = await connectionsOpenedBy(async () => {
        expect(await deliver('/drop-reused', { url })).toMatchObject({ ok: true, statusCode: 204 });
      });

      expect(opened).toBe(1);
      expect(received.map((request) => request.path)).toEqual(['/drop-reused', '(dropped)', '/drop-reused']);
    });

    it('keeps one pool per scheme, host name, vetted address and port', () => {
      const target = (url: string, address: string) => ({ url: new URL(url), hostname: new URL(url).hostname, address, family: 4 as const });

      const keys = [
        poolKey(target('https://a.example.test/x', '93.184.216.34')),
        poolKey(target('https://a.example.test/y', '93.184.216.35')),
        poolKey(target('http://a.example.test/x', '93.184.216.34')),
        poolKey(target('https://a.example.test:8443/x', '93.184.216.34')),
        poolKey(target('https://b.example.test/x', '93.184.216.34')),
        poolKey(target('https://b.example.test/x', '2001:db8::1')),
        poolKey(target('https://b.example.test:1/x', '2001:db8::')),
      ];

      expect(new Set(keys).size).toBe(keys.length);
      expect(poolKey(target('https://a.example.test/other/path', '93.184.216.34'))).toBe(keys[0]);
    });
  });
});
