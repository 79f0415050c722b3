import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A small site with known problems for the scanner tests (see test-site/README.md for the
 * rule → page table). Plain HTTP on 127.0.0.1. The `broken` variant sends insecure headers and
 * exposes secrets; `fixed` repairs some problems of each detector so history tests see findings
 * become `fixed`. Unknown paths answer 200 with an HTML "not found" page (a soft 404), the
 * trap that makes naive file probes report false positives.
 */

export type TestSiteVariant = 'broken' | 'fixed';

export interface TestSite {
  url: string;
  close(): Promise<void>;
  setVariant(variant: TestSiteVariant): void;
}

export interface TestSiteOptions {
  variant?: TestSiteVariant;
  /** How long /slow.html waits before answering. */
  slowMs?: number;
}

const ROOT = fileURLToPath(new URL('./test-site/', import.meta.url));
/** /huge.html's size: far above any crawler byte limit the tests use. */
export const HUGE_PAGE_BYTES = 2 * 1024 * 1024;
export const SLOW_PAGE_DEFAULT_MS = 3_000;
export const OFF_ORIGIN_REDIRECT = 'http://example.org/portal';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
};

// Git will not store a directory named .git, so the exposed files live under other names.
const EXPOSED: Record<string, string> = { '/.env': 'exposed/env', '/.git/config': 'exposed/git-config', '/.git/HEAD': 'exposed/git-HEAD' };

const SOFT_404 = '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Page not found</h1></body></html>\n';

function hugePage(): string {
  const row = '<p>Widget model with a long, repetitive description to fill the catalogue.</p>\n';
  const head = '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Catalogue</title></head><body>\n<a href="/about.html">About</a>\n';
  return head + row.repeat(Math.ceil(HUGE_PAGE_BYTES / row.length)) + '</body></html>\n';
}

function siteHeaders(variant: TestSiteVariant, isFront: boolean): Record<string, string | string[]> {
  if (variant === 'broken') {
    return {
      Server: 'Apache/2.4.41 (Ubuntu)',
      'X-Powered-By': 'PHP/7.4.3',
      ...(isFront ? { 'Set-Cookie': ['session=abc123; Path=/', 'tracking=xyz; Path=/; Max-Age=3600'] } : {}),
    };
  }
  return {
    Server: 'Apache',
    // Deliberately still weak in the fixed variant: 'unsafe-inline' scripts and a short HSTS.
    'Content-Security-Policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; frame-ancestors 'self'",
    'Strict-Transport-Security': 'max-age=3600',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'SAMEORIGIN',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    ...(isFront ? { 'Set-Cookie': ['session=abc123; Path=/; HttpOnly; Secure; SameSite=Lax', 'tracking=xyz; Path=/; Max-Age=3600; SameSite=Lax'] } : {}),
  };
}

/** Starts the site on 127.0.0.1 (random port). */
export async function startTestSite(options: TestSiteOptions = {}): Promise<TestSite> {
  let variant: TestSiteVariant = options.variant ?? 'broken';
  const slowMs = options.slowMs ?? SLOW_PAGE_DEFAULT_MS;
  const timers = new Set<NodeJS.Timeout>();
  const huge = hugePage();

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer, isFront = false) => {
    const headers = siteHeaders(variant, isFront);
    res.writeHead(status, { ...headers, 'Content-Type': type });
    res.end(body);
  };

  const readStatic = async (path: string): Promise<Buffer | undefined> => {
    const relative = normalize(path).replace(/^(\.\.[/\\])+/, '');
    for (const dir of variant === 'fixed' ? ['fixed', 'public'] : ['public']) {
      try {
        return await readFile(join(ROOT, dir, relative));
      } catch {
        // not in this layer
      }
    }
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://site.invalid').pathname);
    if (path === '/old-about') return res.writeHead(301, { Location: '/about.html' }).end();
    if (path === '/go-elsewhere') return res.writeHead(302, { Location: OFF_ORIGIN_REDIRECT }).end();
    if (path === '/huge.html') return send(res, 200, TYPES['.html'], huge);
    if (path === '/slow.html') {
      const file = (await readStatic('slow.html')) as Buffer;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) send(res, 200, TYPES['.html'], file);
      }, slowMs);
      timers.add(timer);
      return;
    }
    if (variant === 'broken' && EXPOSED[path]) return send(res, 200, 'text/plain', await readFile(join(ROOT, EXPOSED[path])));
    const file = await readStatic(path === '/' ? 'index.html' : path.slice(1));
    if (!file) return send(res, 200, TYPES['.html'], SOFT_404);
    send(res, 200, TYPES[extname(path)] ?? (path === '/' ? TYPES['.html'] : 'application/octet-stream'), file, path === '/');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    setVariant: (next) => {
      variant = next;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
