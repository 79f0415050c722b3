import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardConfig, isDashboardRequest, serveDashboard } from '#lib/local/gateway/dashboard-files';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let dist: string;
let server: Server;
let port: number;

/** A raw request, so paths reach the server exactly as written (no client-side normalising). */
function get(path: string, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-dashboard-'));
  dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dist, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(dist, 'robots.txt'), 'User-agent: *');
  // A secret beside dist, which no path may reach.
  writeFileSync(join(root, 'secret.txt'), 'top secret');
  server = createServer((req, res) => serveDashboard(req, res, new URL(req.url ?? '/', 'http://x').pathname, dist));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(join(dist, '..'), { recursive: true, force: true });
});

describe('the dashboard files', () => {
  it('serves index.html at / with its content type, revalidated on every visit', async () => {
    const answer = await get('/');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.body).toContain('<title>app</title>');
  });

  it('serves hashed assets with their content types, cached for good', async () => {
    const script = await get('/assets/index-abc123.js');
    const style = await get('/assets/index-abc123.css');
    const text = await get('/robots.txt');

    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.headers['cache-control']).toBe('no-cache');
  });

  it("answers the app's own pages (paths without an extension) with index.html", async () => {
    const answer = await get('/tasks/tsk_01HXYZ');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('<title>app</title>');
  });

  it('answers 404 for a missing file with an extension, not the app', async () => {
    const answer = await get('/assets/missing-0000.js');

    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('<title>app</title>');
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body).code).toBe('route_not_found');
  });

  it.each(['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/%00index.html', '/%E0%A4%A'])('refuses a path that tries to leave dist: %s', async (path) => {
    const answer = await get(path);

    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.body).not.toContain('top secret');
  });

  it('answers HEAD with the headers and no body', async () => {
    const answer = await get('/assets/index-abc123.js', 'HEAD');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe(String('console.log(1)'.length));
    expect(answer.body).toBe('');
  });

  it('sends the security headers on every answer, pages and errors alike', async () => {
    for (const path of ['/', '/assets/index-abc123.js', '/nope.png', '/config.json']) {
      const { headers } = await get(path);

      expect(headers['content-security-policy']).toContain("default-src 'self'");
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it('builds /config.json from the runtime: the API on /v1, the issuer and client id of the environment', async () => {
    const config = dashboardConfig({ GATEHOUSE_OIDC_ISSUER: 'http://127.0.0.1:3000/oidc', GATEHOUSE_OIDC_CLIENT_ID: 'gatehouse-dashboard' });
    const answer = await get('/config.json');

    expect(config).toEqual({ apiBaseUrl: '/v1', oidc: { issuer: 'http://127.0.0.1:3000/oidc', clientId: 'gatehouse-dashboard', scope: 'openid email profile' }, inboundMail: true });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(answer.body).apiBaseUrl).toBe('/v1');
  });

  it('leaves /v1, /oidc, /health and methods other than GET and HEAD to the API', () => {
    const html = 'text/html,application/xhtml+xml,*/*;q=0.8';
    expect(isDashboardRequest('GET', '/v1/agents', html)).toBe(false);
    expect(isDashboardRequest('GET', '/v1', html)).toBe(false);
    expect(isDashboardRequest('GET', '/oidc/auth', html)).toBe(false);
    expect(isDashboardRequest('GET', '/health', html)).toBe(false);
    expect(isDashboardRequest('POST', '/agents', html)).toBe(false);
    expect(isDashboardRequest('GET', '/agents', html)).toBe(true);
    expect(isDashboardRequest('HEAD', '/v1x', html)).toBe(true);
  });

  it('serves pages to browsers and files to anyone, and leaves API clients their 404', () => {
    expect(isDashboardRequest('GET', '/', 'text/html')).toBe(true);
    expect(isDashboardRequest('GET', '/tasks/tsk_1', 'text/html,*/*;q=0.8')).toBe(true);
    expect(isDashboardRequest('GET', '/assets/index-abc.js', '*/*')).toBe(true);
    expect(isDashboardRequest('GET', '/config.json', 'application/json')).toBe(true);
    expect(isDashboardRequest('GET', '/', '')).toBe(false);
    expect(isDashboardRequest('GET', '/tasks', 'application/json')).toBe(false);
    expect(isDashboardRequest('GET', '/v2/tasks', '*/*')).toBe(false);
  });
});

describe('before the dashboard is built', () => {
  it('answers a file with the API’s 404 problem and a page with a sentence saying what to do', async () => {
    const missing = join(tmpdir(), `gatehouse-no-dist-${process.pid}`);
    const bare = createServer((req, res) => serveDashboard(req, res, new URL(req.url ?? '/', 'http://x').pathname, missing));
    await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
    const ask = (path: string) =>
      new Promise<Answer>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: (bare.address() as AddressInfo).port, path }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const file = await ask('/openapi.json');
      expect(file.status).toBe(404);
      expect(JSON.parse(file.body).code).toBe('route_not_found');
      const page = await ask('/tasks');
      expect(page.status).toBe(404);
      expect(page.body).toContain('npm start');
    } finally {
      await new Promise((done) => bare.close(done));
    }
  });
});
