import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * "The bundled site" of the accessibility comparison: static pages with known problems
 * (test/fixtures/accessibility-site/: low contrast, images without alt, a single-page app that
 * renders its list from JSON after load, unlabeled controls, ARIA misuse, small targets). Plain
 * HTTP on 127.0.0.1; unknown paths are 404.
 */

const ROOT = fileURLToPath(new URL('../fixtures/accessibility-site/', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

/** The site's HTML pages, as the crawl reaches them from `/`. */
export const ACCESSIBILITY_SITE_PAGES = ['/', '/catalogue.html', '/app.html', '/contact.html', '/widgets.html', '/members.html'];

export interface AccessibilitySite {
  url: string;
  close(): Promise<void>;
}

export async function startAccessibilitySite(): Promise<AccessibilitySite> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const file = normalize(join(ROOT, path === '/' ? 'index.html' : path));
    if (!file.startsWith(ROOT)) return void response.writeHead(404).end();
    readFile(file).then(
      (body) => response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
