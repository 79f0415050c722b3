import { describe, expect, it } from 'vitest';
import { crawl } from '#shared/scans/crawler/crawl';
import type { CrawlOptions, FetchOutcome, PageFetcher } from '#shared/scans/model';

const ORIGIN = 'https://site.test';
const at = (path: string) => `${ORIGIN}${path}`;

/** One answer of the in-code site: a page (by its HTML) or a status with headers. */
type Answer = string | { status: number; headers?: Record<string, string>; body?: string } | 'unreachable';

function html({ links = [], canonical }: { links?: string[]; canonical?: string }): string {
  const head = canonical ? `<link rel="canonical" href="${canonical}">` : '';
  return `<!DOCTYPE html><html lang="en"><head><title>Page</title>${head}</head><body>${links.map((href) => `<a href="${href}">${href}</a>`).join('')}</body></html>`;
}

/**
 * A PageFetcher over a table of paths (path and query, exactly as requested), recording every
 * request; a path not in the table answers 404. `jitter` answers after random delays, to show
 * that the result does not depend on timing.
 */
function site(paths: Record<string, Answer>, { jitter = false } = {}): { fetchPage: PageFetcher; requested: string[] } {
  const requested: string[] = [];
  const fetchPage: PageFetcher = async (url) => {
    const { pathname, search } = new URL(url);
    requested.push(pathname + search);
    if (jitter) await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    const answer = paths[pathname + search] ?? { status: 404, body: 'not found' };
    if (answer === 'unreachable') return { ok: false, url, reason: 'unreachable', message: 'ECONNREFUSED' } satisfies FetchOutcome;
    const { status, headers = {}, body = '' } = typeof answer === 'string' ? { status: 200, headers: { 'content-type': 'text/html' }, body: answer } : answer;
    const contentType = (headers['content-type'] ?? '').split(';')[0];
    return { ok: true, page: { url, final_url: url, status, headers, set_cookies: [], content_type: contentType, body, truncated: false } };
  };
  return { fetchPage, requested };
}

const options = (fetchPage: PageFetcher, extra: Partial<CrawlOptions> = {}): CrawlOptions => ({ maxPages: 20, fetchPage, ...extra });
const pagesOf = (result: { pages: { url: string }[] }) => result.pages.map((page) => page.url.slice(ORIGIN.length));

describe('crawl: one page, one audit', () => {
  it('audits `/` once however it is linked: /index.html, a fragment, an upper-case host, the default port', async () => {
    const { fetchPage, requested } = site({
      '/': html({ links: ['/index.html', '/#top', 'https://SITE.test:443/', '/about'] }),
      '/about': html({ links: ['/', 'index.php'] }),
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(pagesOf(result)).toEqual(['/', '/about']);
    expect(requested).toEqual(['/robots.txt', '/', '/about']);
    expect(result.problems).toEqual([]);
    expect(result.duplicates).toBe(2);
  });

  it('keeps the first spelling of a page: query parameters in any order, trailing slash, directory index', async () => {
    const { fetchPage, requested } = site({
      '/': html({ links: ['/list?b=2&a=1', '/list?a=1&b=2', '/docs/', '/docs', '/docs/index.html', '/list?a=1&b=3'] }),
      '/list?b=2&a=1': html({}),
      '/list?a=1&b=3': html({}),
      '/docs/': html({}),
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(pagesOf(result)).toEqual(['/', '/list?b=2&a=1', '/docs/', '/list?a=1&b=3']);
    expect(requested).not.toContain('/list?a=1&b=2');
    expect(requested).not.toContain('/docs');
    expect(result.duplicates).toBe(3);
  });

  it('counts two links that redirect to one page as that page', async () => {
    const { fetchPage } = site({
      '/': html({ links: ['/old-about', '/about/'] }),
      '/old-about': { status: 301, headers: { location: '/about' } },
      '/about': html({}),
      '/about/': html({}),
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(result.pages.map((page) => [page.url, page.final_url])).toEqual([
      [at('/'), at('/')],
      [at('/old-about'), at('/about')],
    ]);
    expect(result.problems).toEqual([]);
    expect(result.duplicates).toBe(1);
  });

  it('skips a page whose rel=canonical names a page already audited', async () => {
    const { fetchPage, requested } = site({
      '/': html({ links: ['/about', '/about?print=1'] }),
      '/about': html({}),
      '/about?print=1': html({ canonical: '/about' }),
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(pagesOf(result)).toEqual(['/', '/about']);
    expect(requested).toContain('/about?print=1');
    expect(result.problems).toEqual([]);
    expect(result.duplicates).toBe(1);
  });

  it('lets a page stand for its canonical URL, which is then not fetched, while keeping the URL it fetched', async () => {
    const { fetchPage, requested } = site({
      '/': html({ links: ['/shoes?ref=nav'] }),
      '/shoes?ref=nav': html({ canonical: 'https://site.test/shoes', links: ['/shoes', '/shoes/'] }),
      '/shoes': html({}),
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(result.pages.map((page) => page.final_url)).toEqual([at('/'), at('/shoes?ref=nav')]);
    expect(requested).not.toContain('/shoes');
  });

  it('skips a queued page once a page fetched before it named it as canonical', async () => {
    const { fetchPage } = site({
      '/': html({ links: ['/a', '/b'] }),
      '/a': html({ canonical: '/b' }),
      '/b': html({}),
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(pagesOf(result)).toEqual(['/', '/a']);
  });

  it('ignores a canonical on another origin, one in <body>, and canonicals that disagree', async () => {
    const { fetchPage } = site({
      '/': html({ links: ['/syndicated', '/body-canonical', '/two-canonicals'] }),
      '/syndicated': html({ canonical: 'https://news.example/story' }),
      '/body-canonical': '<!DOCTYPE html><html><head><title>x</title></head><body><link rel="canonical" href="/"></body></html>',
      '/two-canonicals': '<!DOCTYPE html><html><head><title>x</title><link rel="canonical" href="/"><link rel="Canonical" href="/syndicated"></head><body></body></html>',
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(pagesOf(result)).toEqual(['/', '/syndicated', '/body-canonical', '/two-canonicals']);
  });

  it('spends max_pages on distinct pages only', async () => {
    const { fetchPage } = site({
      '/': html({ links: ['/index.html', '/?', '/#x', '/about', '/contact'] }),
      '/about': html({}),
      '/contact': html({}),
    });

    const result = await crawl(at('/'), options(fetchPage, { maxPages: 2 }));

    expect(pagesOf(result)).toEqual(['/', '/about']);
  });

  it('gives the same pages in the same order whatever the timing', async () => {
    const paths: Record<string, Answer> = {
      '/': html({ links: ['/a', '/b', '/c', '/d', '/e', '/index.html'] }),
      '/a': html({ canonical: '/e', links: ['/f'] }),
      '/b': html({ links: ['/a/', '/f/'] }),
      '/c': { status: 301, headers: { location: '/b' } },
      '/d': html({}),
      '/e': html({}),
      '/f': html({}),
    };
    const runs = await Promise.all([1, 2, 3, 4, 5].map(() => crawl(at('/'), options(site(paths, { jitter: true }).fetchPage))));

    for (const run of runs) expect(run).toEqual(runs[0]);
    expect(pagesOf(runs[0])).toEqual(['/', '/a', '/b', '/d', '/f']);
  });
});

describe('crawl: robots.txt', () => {
  const robots = (text: string): Answer => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: text });

  it("reads robots.txt once, first, and obeys the scanner's group over `*`", async () => {
    const { fetchPage, requested } = site({
      '/robots.txt': robots('User-agent: *\nDisallow: /\n\nUser-agent: GatehouseScanner\nDisallow: /private\n'),
      '/': html({ links: ['/about', '/private', '/private/report', '/about'] }),
      '/about': html({ links: ['/private'] }),
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(pagesOf(result)).toEqual(['/', '/about']);
    expect(requested).toEqual(['/robots.txt', '/', '/about']);
    expect(result.problems).toEqual([
      { url: at('/private'), reason: 'robots_disallowed' },
      { url: at('/private/report'), reason: 'robots_disallowed' },
    ]);
  });

  it('fetches nothing else when the target is disallowed', async () => {
    const { fetchPage, requested } = site({ '/robots.txt': robots('User-agent: *\nDisallow: /\n'), '/': html({}) });

    const result = await crawl(at('/'), options(fetchPage));

    expect(result).toEqual({ pages: [], problems: [{ url: at('/'), reason: 'robots_disallowed' }] });
    expect(requested).toEqual(['/robots.txt']);
  });

  it('does not follow a redirect into a disallowed path', async () => {
    const { fetchPage, requested } = site({
      '/robots.txt': robots('User-agent: *\nDisallow: /members\n'),
      '/': html({ links: ['/account'] }),
      '/account': { status: 302, headers: { location: '/members/login' } },
    });

    const result = await crawl(at('/'), options(fetchPage));

    expect(result.problems).toEqual([{ url: at('/account'), reason: 'robots_disallowed' }]);
    expect(requested).not.toContain('/members/login');
  });

  it('allows everything when robots.txt is missing, failing or unreachable', async () => {
    for (const answer of [{ status: 404 }, { status: 503 }, 'unreachable'] as Answer[]) {
      const { fetchPage } = site({ '/robots.txt': answer, '/': html({ links: ['/private'] }), '/private': html({}) });

      const result = await crawl(at('/'), options(fetchPage));

      expect(pagesOf(result)).toEqual(['/', '/private']);
    }
  });

  it('reads it not at all when the project turned it off', async () => {
    const { fetchPage, requested } = site({ '/robots.txt': robots('User-agent: *\nDisallow: /\n'), '/': html({ links: ['/private'] }), '/private': html({}) });

    const result = await crawl(at('/'), options(fetchPage, { respectRobotsTxt: false }));

    expect(pagesOf(result)).toEqual(['/', '/private']);
    expect(requested).toEqual(['/', '/private']);
  });
});

describe('crawl: include and exclude patterns', () => {
  const shop = () =>
    site({
      '/': html({ links: ['/docs/start', '/docs/drafts/next', '/docs/manual.pdf', '/pricing', '/docs/start#install'] }),
      '/docs/start': html({ links: ['/docs/api?lang=en', '/pricing'] }),
      '/docs/api?lang=en': html({}),
      '/pricing': html({}),
    });

  it('follows the links that some include pattern matches and no exclude pattern does, counting the rest', async () => {
    const { fetchPage, requested } = shop();

    const result = await crawl(at('/'), options(fetchPage, { include: ['/docs/'], exclude: ['/docs/drafts/', '/*.pdf$'] }));

    expect(pagesOf(result)).toEqual(['/', '/docs/start', '/docs/api?lang=en']);
    expect(requested).not.toContain('/pricing');
    expect(requested).not.toContain('/docs/drafts/next');
    expect(result.problems).toEqual([]);
    expect(result.excluded).toBe(3);
  });

  it('always crawls the target, which is where the crawl starts', async () => {
    const { fetchPage } = shop();

    const result = await crawl(at('/'), options(fetchPage, { exclude: ['/'] }));

    expect(pagesOf(result)).toEqual(['/']);
    expect(result.excluded).toBe(4);
  });
});
