import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, httpCrawlOptions, httpPageFetcher } from '#shared/adapters/http/fetch-page';
import { crawl, makeOriginFetcher } from '#shared/scans/crawler/crawl';
import type { CrawlResult } from '#shared/scans/model';
import { OFF_ORIGIN_REDIRECT, startTestSite, type TestSite } from '../../support/test-site-server';

const SLOW_MS = 2_000;
const OPTIONS = { maxPages: 20, maxBytes: 128 * 1024, timeoutMs: 500, allowLoopback: true };

describe('crawl against the test site', () => {
  let site: TestSite;
  let result: CrawlResult;
  let crawlMs: number;
  const at = (path: string) => new URL(path, site.url).href;

  beforeAll(async () => {
    site = await startTestSite({ slowMs: SLOW_MS });
    const started = performance.now();
    result = await crawl(site.url, httpCrawlOptions(OPTIONS));
    crawlMs = performance.now() - started;
  });
  afterAll(async () => {
    await site.close();
  });

  it('visits the same-origin HTML pages breadth-first, target first', () => {
    expect(result.pages.map((p) => p.url)).toEqual(
      ['/', '/about.html', '/contact.html', '/chat.html', '/blog.html', '/partners.html', '/huge.html'].map(at),
    );
    for (const page of result.pages) expect(new URL(page.final_url).origin).toBe(new URL(site.url).origin);
  });

  it('records why the other links were not pages', () => {
    expect(result.problems).toEqual([
      { url: at('/report.pdf'), reason: 'not_html' },
      { url: at('/data.json'), reason: 'not_html' },
      { url: at('/slow.html'), reason: 'timeout' },
      { url: at('/huge.html'), reason: 'too_large' },
      { url: at('/go-elsewhere'), reason: 'redirect_off_origin' },
    ]);
  });

  it('gives up on the slow page at the timeout instead of waiting for it', () => {
    expect(crawlMs).toBeLessThan(SLOW_MS);
  });

  it('keeps the huge page, truncated to the byte limit', () => {
    const huge = result.pages.find((p) => p.url === at('/huge.html'));
    expect(huge?.truncated).toBe(true);
    expect(Buffer.byteLength(huge?.body ?? '')).toBeLessThanOrEqual(OPTIONS.maxBytes);
    expect(huge?.body.startsWith('<!DOCTYPE html>')).toBe(true);
  });

  it('follows a same-origin redirect without duplicating the page it lands on', () => {
    expect(result.pages.filter((p) => p.final_url === at('/about.html'))).toHaveLength(1);
    expect(result.problems.some((p) => p.url === at('/old-about'))).toBe(false);
  });

  it('captures lower-case headers, every Set-Cookie and the content type', () => {
    const [front] = result.pages;
    expect(front.status).toBe(200);
    expect(front.headers['server']).toBe('Apache/2.4.41 (Ubuntu)');
    expect(front.headers['x-powered-by']).toBe('PHP/7.4.3');
    expect(Object.keys(front.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(front.set_cookies).toEqual(['session=abc123; Path=/', 'tracking=xyz; Path=/; Max-Age=3600']);
    expect(front.content_type).toBe('text/html');
    expect(front.tls).toBeUndefined();
  });

  it('stops at maxPages', async () => {
    const bounded = await crawl(site.url, httpCrawlOptions({ ...OPTIONS, maxPages: 3 }));
    expect(bounded.pages.map((p) => p.url)).toEqual(['/', '/about.html', '/contact.html'].map(at));
  });

  it('gives the same result twice (deterministic order)', async () => {
    const again = await crawl(site.url, httpCrawlOptions(OPTIONS));
    expect(again.pages.map((p) => p.url)).toEqual(result.pages.map((p) => p.url));
    expect(again.problems).toEqual(result.problems);
  });

  it('returns a redirect as it is from fetchPage', async () => {
    const outcome = await fetchPage(at('/go-elsewhere'), OPTIONS);
    expect(outcome.ok && outcome.page.status).toBe(302);
    expect(outcome.ok && outcome.page.headers['location']).toBe(OFF_ORIGIN_REDIRECT);
  });

  it('refuses loopback targets unless allowed', async () => {
    const outcome = await fetchPage(site.url, { ...OPTIONS, allowLoopback: false });
    expect(outcome).toMatchObject({ ok: false, reason: 'blocked_url' });
    const crawled = await crawl(site.url, httpCrawlOptions({ ...OPTIONS, allowLoopback: false }));
    expect(crawled).toEqual({ pages: [], problems: [{ url: site.url, reason: 'blocked_url' }] });
  });

  it('fetches single paths of the origin, and nothing off it', async () => {
    const fetchPath = makeOriginFetcher(site.url, httpPageFetcher(OPTIONS));
    const robots = await fetchPath('/robots.txt');
    expect(robots?.status).toBe(200);
    expect(robots?.body).toContain('User-agent: *');
    expect(await fetchPath('http://example.org/robots.txt')).toBeUndefined();
  });
});

describe('crawl of an unreachable target', () => {
  it('reports unreachable quickly for a closed port', async () => {
    const server = createHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const target = `http://127.0.0.1:${port}/`;

    const started = performance.now();
    const result = await crawl(target, httpCrawlOptions({ ...OPTIONS, timeoutMs: 2_000 }));

    expect(result).toEqual({ pages: [], problems: [{ url: target, reason: 'unreachable' }] });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('times out on a server that accepts but never answers', async () => {
    const server = createHttpServer(() => {
      // never respond
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const result = await crawl(target, httpCrawlOptions({ ...OPTIONS, timeoutMs: 300 }));
      expect(result).toEqual({ pages: [], problems: [{ url: target, reason: 'timeout' }] });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('fetchPage over https', () => {
  let server: HttpsServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore', timeout: 20_000 });
    server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!DOCTYPE html><title>tls</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the page despite a self-signed certificate and reports the TLS facts', async () => {
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const outcome = await fetchPage(url, OPTIONS);

    expect(outcome.ok).toBe(true);
    const tls = outcome.ok ? outcome.page.tls : undefined;
    expect(tls).toMatchObject({ protocol: 'TLSv1.3', authorized: false, authorization_error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(tls?.issuer).toContain('CN=localhost');
    expect(tls?.cipher).toMatch(/^TLS_/);
    expect(Date.parse(tls?.valid_to ?? '')).toBeGreaterThan(Date.now());
  });
});
