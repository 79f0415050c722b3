import type { CrawlOptions, CrawlResult, FetchedPage, FetchFailureReason, OriginFetcher, PageFetcher } from '#shared/scans/model';
import { canonicalKey } from '#shared/scans/crawler/canonical-url';
import { inCrawlScope } from '#shared/scans/crawler/crawl-scope';
import { canonicalLinkOf, linksOf, parseHtml, type ParsedHtml } from '#shared/scans/crawler/html';
import { ALLOW_ALL, robotsRulesOf, type RobotsRules } from '#shared/scans/crawler/robots-rules';

/**
 * Bounded breadth-first crawl of one origin. Pages are fetched a few at a time, but each wave's
 * results are handled in queue order, so the same site always gives the same pages in the same
 * order whatever the network timing: scans must be comparable run to run. The fetching itself
 * (SSRF guard, deadline, byte limit) is the PageFetcher's.
 *
 * Each page is audited once, however it is linked: URLs are queued by their canonical key
 * (canonical-url.ts), and a fetched page also stands for its final URL after redirects and for
 * the same-origin URL its `<link rel="canonical">` names. The first spelling found wins; the
 * others are counted in `duplicates`, not reported as problems. robots.txt is read once, first;
 * the include/exclude patterns decide which links are followed.
 */

/** Redirect hops followed per URL; more is almost always a loop. */
export const MAX_REDIRECTS = 5;
const CONCURRENCY = 4;

type Stop = 'redirect_off_origin' | 'too_many_redirects' | 'bad_redirect' | 'robots_disallowed';
type Followed = { ok: true; page: FetchedPage; origin: string; stop?: Stop } | { ok: false; url: string; reason: FetchFailureReason };

interface FollowOptions {
  /** An http → https redirect on the same host moves the crawl to the https origin. */
  adoptUpgrade?: boolean;
  /** robots.txt's verdict on each hop. */
  robots?: RobotsRules;
}

/**
 * GETs `url`, following same-origin redirects (each hop through the page fetcher, so
 * through its SSRF guard, again). An off-origin redirect is not followed: the 3xx is returned with `stop` set. With `adoptUpgrade`,
 * an http → https redirect on the same host moves the crawl to the https origin, because that
 * is how most sites answer a bare http target.
 */
async function fetchFollowing(url: string, origin: string, fetchPage: PageFetcher, { adoptUpgrade = false, robots = ALLOW_ALL }: FollowOptions = {}): Promise<Followed> {
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
    if (!robots(next.href)) return { ok: true, page, origin: currentOrigin, stop: 'robots_disallowed' };
    currentOrigin = next.origin;
    current = next.href;
  }
}

function isHtml(page: FetchedPage): boolean {
  if (page.content_type === 'text/html' || page.content_type === 'application/xhtml+xml') return true;
  return page.content_type === '' && /^\s*<(!doctype html|html)/i.test(page.body);
}

/** The origin's robots.txt rules, fetched once like a page; none to obey when it cannot be read (robots-rules.ts says why). */
async function robotsOf(origin: string, fetchPage: PageFetcher): Promise<RobotsRules> {
  const answer = await fetchFollowing(`${origin}/robots.txt`, origin, fetchPage, { adoptUpgrade: true });
  return robotsRulesOf(answer.ok ? { url: answer.page.final_url, status: answer.page.status, body: answer.page.body } : undefined);
}

/** The keys a fetched page stands for: the URL asked for, where redirects ended, and its same-origin rel=canonical. */
function keysOf(page: FetchedPage, parsed: ParsedHtml, origin: string): string[] {
  const keys = [canonicalKey(page.url), canonicalKey(page.final_url)];
  const canonical = canonicalLinkOf(parsed, page.final_url);
  // Another origin's canonical (a syndicated copy, a CDN host) says nothing about this crawl's pages.
  if (canonical && new URL(canonical).origin === origin) keys.push(canonicalKey(canonical));
  return keys;
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
  const robots = options.respectRobotsTxt === false ? ALLOW_ALL : await robotsOf(origin, options.fetchPage);
  if (!robots(start.href)) return { pages: [], problems: [{ url: start.href, reason: 'robots_disallowed' }] };
  const scope = { include: options.include, exclude: options.exclude };
  const queue = [start.href];
  // Keys of every URL queued or ruled out, so each page is considered once.
  const seenKeys = new Set([canonicalKey(start)]);
  // Keys the crawled pages stand for.
  const crawledKeys = new Set<string>();
  // Exact URLs the crawl already knows, so a repeated link is not counted as a duplicate.
  const knownUrls = new Set(queue);
  const duplicates = new Set<string>();
  let excluded = 0;
  const pages: FetchedPage[] = [];
  const problems: CrawlResult['problems'] = [];

  let next = 0;
  while (next < queue.length && pages.length < options.maxPages) {
    const isFirst = next === 0;
    const room = isFirst ? 1 : Math.min(CONCURRENCY, options.maxPages - pages.length);
    const batch: string[] = [];
    while (batch.length < room && next < queue.length) {
      const url = queue[next++];
      // A page crawled since this URL was queued named it as its canonical: that page stands for it.
      if (crawledKeys.has(canonicalKey(url))) duplicates.add(url);
      else batch.push(url);
    }
    const results = await Promise.all(batch.map((url) => fetchFollowing(url, origin, options.fetchPage, { adoptUpgrade: isFirst, robots })));
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
      if (pages.length >= options.maxPages) continue;
      const parsed = parseHtml(page.body);
      const keys = keysOf(page, parsed, origin);
      // Two links redirecting to one page, or a page whose canonical was crawled already, are one page.
      if (keys.some((key) => crawledKeys.has(key))) {
        duplicates.add(url);
        continue;
      }
      for (const key of keys) {
        crawledKeys.add(key);
        seenKeys.add(key);
      }
      knownUrls.add(page.final_url);
      if (page.truncated) problems.push({ url, reason: 'too_large' });
      pages.push(page);
      for (const link of linksOf(parsed, page.final_url)) {
        const linked = new URL(link.url);
        if (linked.origin !== origin) continue;
        const key = canonicalKey(linked);
        if (seenKeys.has(key)) {
          if (!knownUrls.has(link.url)) duplicates.add(link.url);
          continue;
        }
        seenKeys.add(key);
        knownUrls.add(link.url);
        // What the project left out is its choice, not a problem: counted, not listed.
        if (!inCrawlScope(linked, scope)) excluded++;
        else if (!robots(link.url)) problems.push({ url: link.url, reason: 'robots_disallowed' });
        else queue.push(link.url);
      }
    }
  }
  return { pages, problems, ...(duplicates.size ? { duplicates: duplicates.size } : {}), ...(excluded ? { excluded } : {}) };
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
