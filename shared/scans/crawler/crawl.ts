import type { CrawlOptions, CrawlResult, FetchedPage, FetchFailureReason, OriginFetcher, PageFetcher } from '#shared/scans/model';
import { linksOf, parseHtml } from '#shared/scans/crawler/html';

/**
 * Bounded breadth-first crawl of one origin. Pages are fetched a few at a time, but each wave's
 * results are handled in queue order, so the same site always gives the same pages in the same
 * order whatever the network timing: scans must be comparable run to run. The fetching itself
 * (SSRF guard, deadline, byte limit) is the PageFetcher's.
 */

/** Redirect hops followed per URL; more is almost always a loop. */
export const MAX_REDIRECTS = 5;
const CONCURRENCY = 4;

type Followed =
  | { ok: true; page: FetchedPage; origin: string; stop?: 'redirect_off_origin' | 'too_many_redirects' | 'bad_redirect' }
  | { ok: false; url: string; reason: FetchFailureReason };

/**
 * GETs `url`, following same-origin redirects (each hop through the page fetcher, so
 * through its SSRF guard, again). An off-origin redirect is not followed: the 3xx is returned with `stop` set. With `adoptUpgrade`,
 * an http → https redirect on the same host moves the crawl to the https origin, because that
 * is how most sites answer a bare http target.
 */
async function fetchFollowing(url: string, origin: string, fetchPage: PageFetcher, adoptUpgrade = false): Promise<Followed> {
  let current = url;
  let currentOrigin = origin;
  for (let hop = 0; ; hop++) {
    const outcome = await fetchPage(current);
    if (!outcome.ok) return { ok: false, url: current, reason: outcome.reason };
    const page = { ...outcome.page, url, final_url: current };
    const location = page.headers.location;
    if (page.status < 300 || page.status >= 400 || !location) return { ok: true, page, origin: currentOrigin };
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { ok: true, page, origin: currentOrigin, stop: 'bad_redirect' };
    }
    next.hash = '';
    const from = new URL(current);
    const isUpgrade = adoptUpgrade && from.protocol === 'http:' && next.protocol === 'https:' && next.hostname === from.hostname;
    if (next.origin !== currentOrigin && !isUpgrade) return { ok: true, page, origin: currentOrigin, stop: 'redirect_off_origin' };
    if (hop >= MAX_REDIRECTS) return { ok: true, page, origin: currentOrigin, stop: 'too_many_redirects' };
    currentOrigin = next.origin;
    current = next.href;
  }
}

function isHtml(page: FetchedPage): boolean {
  if (page.content_type === 'text/html' || page.content_type === 'application/xhtml+xml') return true;
  return page.content_type === '' && /^\s*<(!doctype html|html)/i.test(page.body);
}

/** Crawls `target`'s origin breadth-first, at most `options.maxPages` HTML pages; see the module comment. */
export async function crawl(target: string, options: CrawlOptions): Promise<CrawlResult> {
  let start: URL;
  try {
    start = new URL(target);
    start.hash = '';
  } catch {
    return { pages: [], problems: [{ url: target, reason: 'invalid_url' }] };
  }
  let origin = start.origin;
  const queue = [start.href];
  const queued = new Set(queue);
  const finalUrls = new Set<string>();
  const pages: FetchedPage[] = [];
  const problems: CrawlResult['problems'] = [];

  let next = 0;
  while (next < queue.length && pages.length < options.maxPages) {
    const isFirst = next === 0;
    const batch = queue.slice(next, next + (isFirst ? 1 : Math.min(CONCURRENCY, options.maxPages - pages.length)));
    next += batch.length;
    const results = await Promise.all(batch.map((url) => fetchFollowing(url, origin, options.fetchPage, isFirst)));
    for (const [index, result] of results.entries()) {
      const url = batch[index];
      if (!result.ok) {
        // Without the first page there is nothing to crawl from: say why, plainly, and stop.
        if (isFirst) return { pages: [], problems: [{ url, reason: result.reason }] };
        problems.push({ url, reason: result.reason });
        continue;
      }
      if (isFirst) origin = result.origin;
      const page = result.page;
      if (result.stop) {
        problems.push({ url, reason: result.stop });
        continue;
      }
      if (page.status >= 300) {
        problems.push({ url, reason: `http_${page.status}` });
        continue;
      }
      if (!isHtml(page)) {
        problems.push({ url, reason: 'not_html' });
        continue;
      }
      // Two links redirecting to the same page are one page.
      if (finalUrls.has(page.final_url) || pages.length >= options.maxPages) continue;
      finalUrls.add(page.final_url);
      if (page.truncated) problems.push({ url, reason: 'too_large' });
      pages.push(page);
      for (const link of linksOf(parseHtml(page.body), page.final_url)) {
        if (new URL(link.url).origin !== origin || queued.has(link.url)) continue;
        queued.add(link.url);
        queue.push(link.url);
      }
    }
  }
  return { pages, problems };
}

/**
 * Fetches single paths of the target's origin (robots.txt, /.env, ...), following same-origin
 * redirects; answers are memoised because several detectors ask for the same file.
 * Undefined when the origin cannot be reached for that path.
 */
export function makeOriginFetcher(target: string, fetchPage: PageFetcher): OriginFetcher {
  const origin = new URL(target).origin;
  const cache = new Map<string, Promise<FetchedPage | undefined>>();
  return (path: string) => {
    const resolved = new URL(path, origin);
    // Only the target's own origin: a detector asking for another host would be a crawl escape.
    if (resolved.origin !== origin) return Promise.resolve(undefined);
    resolved.hash = '';
    const url = resolved.href;
    let answer = cache.get(url);
    if (!answer) {
      answer = fetchFollowing(url, origin, fetchPage).then((result) => (result.ok ? result.page : undefined));
      cache.set(url, answer);
    }
    return answer;
  };
}
