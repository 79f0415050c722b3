/**
 * A project's include and exclude patterns, read the way robots.txt rules are read (RFC 9309
 * §2.2.2–2.2.3), so one syntax serves both: a pattern starts with `/` and matches the URL's path
 * and query from the start; `*` matches any run of characters; a final `$` anchors the end.
 * Percent-escapes compare in upper case on both sides, as robots-parser does.
 */

export interface CrawlScope {
  /** A URL is in scope when its path matches one of these (none: every path). */
  include?: readonly string[];
  /** ...and none of these. */
  exclude?: readonly string[];
}

const upperEscapes = (text: string) => text.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());

function normalisePattern(pattern: string): string {
  try {
    // Escape what a URL would escape (spaces, non-ASCII), but keep escapes already written.
    return upperEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern;
  }
}

/**
 * Whole-text match where `*` is any run. Greedy with one backtrack point: linear in practice and
 * O(pattern × text) at worst, never the exponential backtracking a RegExp of `.*`s can hit with
 * customer-written patterns.
 */
function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Whether `pattern` matches `pathAndQuery` (e.g. `/blog/post?page=2`); see the module comment. */
export function matchesPathPattern(pattern: string, pathAndQuery: string): boolean {
  const normalised = normalisePattern(pattern);
  // Unanchored means "starts with": the same as a trailing `*`.
  const whole = normalised.endsWith('$') ? normalised.slice(0, -1) : `${normalised}*`;
  return wildcardMatch(whole, upperEscapes(pathAndQuery));
}

/** Whether the crawl may fetch `url` under `scope`: some include pattern matches it (or there is none) and no exclude pattern does. */
export function inCrawlScope(url: string | URL, scope: CrawlScope): boolean {
  const { pathname, search } = new URL(url);
  const path = pathname + search;
  const included = !scope.include?.length || scope.include.some((pattern) => matchesPathPattern(pattern, path));
  return included && !scope.exclude?.some((pattern) => matchesPathPattern(pattern, path));
}
