import robotsParser from 'robots-parser';

/**
 * What an origin's robots.txt lets the scanner fetch (RFC 9309), parsed by robots-parser: the
 * group for our product token wins over `*`, the longest matching rule decides, Allow wins a tie.
 *
 * No usable answer means everything is allowed. For 4xx that is the RFC's rule. For 5xx and an
 * unreachable file the RFC says to assume complete disallow, but a scan is asked for by the
 * site's owner, and failing their scan because their robots.txt endpoint flickered helps no one;
 * the pages are then fetched with the same limits as always. Crawl-delay is not read: a scan
 * fetches at most a few dozen pages, four at a time.
 */

/** The product token of the scanner's User-Agent, which robots.txt groups name. */
export const SCANNER_PRODUCT_TOKEN = 'GatehouseScanner';

/** Whether the scanner may fetch `url` (an absolute URL of the origin the rules came from). */
export type RobotsRules = (url: string) => boolean;

export const ALLOW_ALL: RobotsRules = () => true;

/** The rules from robots.txt as fetched (after redirects), or undefined when it could not be fetched. */
export function robotsRulesOf(answer: { url: string; status: number; body: string } | undefined): RobotsRules {
  if (!answer || answer.status < 200 || answer.status >= 300) return ALLOW_ALL;
  const base = new URL(answer.url);
  const robots = robotsParser(base.href, answer.body);
  return (url) => {
    // Matched by path on the file's own origin: after an http → https upgrade the rules still apply.
    const { pathname, search } = new URL(url);
    return robots.isAllowed(new URL(pathname + search, base).href, SCANNER_PRODUCT_TOKEN) !== false;
  };
}
