import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhook } from '#shared/adapters/http/deliver-webhook';
import { ExcerptCollector, RESPONSE_EXCERPT_BYTES, utf8Prefix } from '#shared/adapters/http/response-excerpt';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/five-kb') {
        res.writeHead(422, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: 'rejected', detail: 'x'.repeat(5 * 1024) }));
      } else if (req.url === '/small') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks é');
      } else if (req.url === '/stalls') {
        // Headers and the first bytes, then nothing more, ever.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('started ');
      } else {
        res.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const deliver = (path: string, timeoutMs = 2000) =>
  deliverWebhook({ url: `http://excerpt.example.test:${port}${path}`, body: '{}', headers: { 'Content-Type': 'application/json' }, allowLoopback: true, resolve: async () => ['127.0.0.1'], timeoutMs });

describe('the response excerpt of a delivery attempt', () => {
  it('keeps the first KiB of a 5 KB answer, marked truncated, with its status and content type', async () => {
    const result = await deliver('/five-kb');

    expect(result).toMatchObject({ ok: false, statusCode: 422, response: { status_code: 422, content_type: 'application/json; charset=utf-8', truncated: true } });
    expect(Buffer.byteLength(result.response!.body)).toBe(RESPONSE_EXCERPT_BYTES);
    expect(result.response!.body.startsWith('{"error":"rejected","detail":"xxx')).toBe(true);
  });

  it('keeps a short answer whole, not truncated', async () => {
    const result = await deliver('/small');

    expect(result.response).toEqual({ status_code: 200, content_type: 'text/plain', body: 'thanks é', truncated: false });
  });

  it('keeps an empty answer as an empty body', async () => {
    const result = await deliver('/empty');

    expect(result.response).toEqual({ status_code: 204, body: '', truncated: false });
  });

  it('ends an attempt whose answer never ends at its timeout, with what arrived, marked truncated', async () => {
    const started = Date.now();

    const result = await deliver('/stalls', 400);

    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({ ok: true, statusCode: 200, response: { status_code: 200, body: 'started ', truncated: true } });
  });

  it('never cuts a character in half at the limit', () => {
    const collector = new ExcerptCollector(200, undefined);
    // 1023 ASCII bytes, then a two-byte character across the limit.
    collector.add(Buffer.from(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 1)}é and more`, 'utf8'));

    const excerpt = collector.excerpt(true);

    expect(excerpt.body).toBe('a'.repeat(RESPONSE_EXCERPT_BYTES - 1));
    expect(excerpt.truncated).toBe(true);
  });

  it('bounds the text by bytes even when bytes that are not UTF-8 widen into replacement characters', () => {
    const collector = new ExcerptCollector(200, 'application/octet-stream');
    collector.add(Buffer.alloc(RESPONSE_EXCERPT_BYTES, 0xff));

    const excerpt = collector.excerpt(true);

    expect(Buffer.byteLength(excerpt.body)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
    expect(excerpt.truncated).toBe(true);
    expect(utf8Prefix('ab€', 4)).toBe('ab');
  });
});
