/**
 * One key per page, however it is spelled: the crawler queues and dedupes by it so that `/`,
 * `/index.html` and `/?` are audited once. A key is for comparing, never for fetching: the crawl
 * fetches the URL it first discovered, as written.
 *
 * Equal keys for: scheme and host in any case, default ports (the URL parser drops 80/443),
 * fragments, query parameters in any order (sorted by name, then value), a trailing slash or not
 * (`/docs/` = `/docs`), a directory index file (`/docs/index.html` = `/docs/`), and
 * percent-escapes that differ only in hex case or escape an unreserved character (RFC 3986 §6.2.2).
 */

const INDEX_FILE = /\/index\.(?:html?|php)$/;
// RFC 3986 unreserved characters: escaping them changes nothing, so `%7E` and `~` are one URL.
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function normaliseEscapes(text: string): string {
  return text.replace(/%[0-9a-fA-F]{2}/g, (escape) => {
    const char = String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
}

function canonicalPath(pathname: string): string {
  let path = normaliseEscapes(pathname).replace(/\/+$/, '');
  // Until nothing changes (`/index.php/index.php/`), so that a key is its own key.
  while (INDEX_FILE.test(path)) path = path.replace(INDEX_FILE, '').replace(/\/+$/, '');
  return path || '/';
}

function canonicalQuery(search: string): string {
  const pairs = search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? { name: normaliseEscapes(pair), value: undefined } : { name: normaliseEscapes(pair.slice(0, at)), value: normaliseEscapes(pair.slice(at + 1)) };
    });
  // Code-unit order, not locale order: the same key on every machine.
  const order = (a?: string, b?: string) => (a === b ? 0 : a === undefined ? -1 : b === undefined ? 1 : a < b ? -1 : 1);
  pairs.sort((a, b) => order(a.name, b.name) || order(a.value, b.value));
  return pairs.map(({ name, value }) => (value === undefined ? name : `${name}=${value}`)).join('&');
}

/** The page's canonical key; see the module comment. A string that is not a URL is its own key. */
export function canonicalKey(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return String(url);
  }
  const query = canonicalQuery(parsed.search);
  return `${parsed.protocol}//${parsed.host}${canonicalPath(parsed.pathname)}${query ? `?${query}` : ''}`;
}
