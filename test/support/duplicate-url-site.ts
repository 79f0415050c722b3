import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * "The duplicate-URL site": one small site that links its pages under many spellings, for the
 * crawl's dedupe, robots.txt and include/exclude tests. Plain HTTP on 127.0.0.1, random port;
 * it records every request (path and query as sent).
 *
 * Every page has one `<img>` without alt text, so each audited page shows exactly one
 * `accessibility.image-alt` finding. What a correct crawl does with each link of the home page:
 *
 * | Link | Outcome |
 * |---|---|
 * | `/` | audited (the target) |
 * | `/index.html` | not fetched: the same page as `/` |
 * | `/search?b=2&a=1` | audited |
 * | `/search?a=1&b=2` | not fetched: the same parameters |
 * | `/about/` | audited |
 * | `/about` | not fetched: the same page as `/about/` |
 * | `/about/print` | fetched, then skipped: its rel=canonical is `/about/` |
 * | `/private/report` | not fetched: robots.txt disallows `/private` for GatehouseScanner (and everything for `*`) |
 * | `/drafts/next` | not fetched when the project excludes `/drafts/` |
 */

export interface DuplicateUrlSite {
  url: string;
  /** Path and query of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

export const DUPLICATE_URL_SITE_ROBOTS = 'User-agent: *\nDisallow: /\n\nUser-agent: GatehouseScanner\nDisallow: /private\n';

const HOME_LINKS = ['/', '/index.html', '/search?b=2&a=1', '/search?a=1&b=2', '/about/', '/about', '/about/print', '/private/report', '/drafts/next'];

function page(title: string, { links = [], canonical }: { links?: string[]; canonical?: string } = {}): string {
  const nav = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return [
    '<!DOCTYPE html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${title}</title>${canonical ? `<link rel="canonical" href="${canonical}">` : ''}</head>`,
    `<body><main><h1>${title}</h1><img src="/photo.png"><ul>${nav}</ul></main></body></html>`,
  ].join('\n');
}

const PAGES: Record<string, string> = {
  '/': page('Home', { links: HOME_LINKS }),
  '/index.html': page('Home', { links: HOME_LINKS }),
  '/search': page('Search results', { links: ['/'] }),
  '/about/': page('About us', { links: ['/'] }),
  '/about': page('About us', { links: ['/'] }),
  '/about/print': page('About us', { links: ['/'], canonical: '/about/' }),
  '/private/report': page('Private report'),
  '/drafts/next': page('Draft'),
};

/** Starts the site on 127.0.0.1 (random port). */
export async function startDuplicateUrlSite(): Promise<DuplicateUrlSite> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const { pathname } = new URL(request.url ?? '/', 'http://site.invalid');
    if (pathname === '/robots.txt') return response.writeHead(200, { 'Content-Type': 'text/plain' }).end(DUPLICATE_URL_SITE_ROBOTS);
    const body = PAGES[pathname];
    if (body === undefined) return response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
