import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, scanEnded, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { startDuplicateUrlSite, type DuplicateUrlSite } from '../support/duplicate-url-site';

let runtime: TestRuntime;
let site: DuplicateUrlSite;
let a: ReturnType<typeof apiClient>;
let scan: any;

const at = (path: string) => new URL(path, site.url).href;

async function allFindings(scanId: string): Promise<any[]> {
  const { body } = await a('GET', `/scans/${scanId}/findings?limit=200`);
  return body.data;
}

describe('a scan of the duplicate-URL site audits each page once', () => {
  beforeAll(async () => {
    site = await startDuplicateUrlSite();
    runtime = await startTestRuntime('scan-pages');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    const project = await a('POST', '/projects', { name: 'Duplicate URLs', target: site.url, crawl: { max_pages: 20, timeout_seconds: 2, exclude: ['/drafts/'] } });
    expect(project.status).toBe(201);
    const created = await a('POST', `/projects/${project.body.project_id}/scans`, { detectors: ['accessibility'] });
    scan = await scanEnded(a, created.body.scan_id);
  }, 180_000);

  afterAll(async () => {
    await runtime?.stop();
    await site?.close();
  });

  it('audits /, one spelling of the search and the about page, and counts only those pages', async () => {
    expect(scan.status).toBe('completed');
    const usage = await a('GET', '/usage');
    expect(usage.body.pages_scanned).toBe(3);

    // Every page shows the same <img> without alt: one finding of the template, on each audited page.
    const imageAlt = (await allFindings(scan.scan_id)).filter((finding) => finding.rule_id === 'accessibility.image-alt');
    expect(imageAlt).toHaveLength(1);
    expect(imageAlt[0].page_count).toBe(3);
    expect([imageAlt[0].location, ...imageAlt[0].other_locations].map((location) => location.url).sort()).toEqual([at('/'), at('/about/'), at('/search?b=2&a=1')].sort());
  });

  it('counts the home page findings once, however the home page is linked', async () => {
    const home = (await allFindings(scan.scan_id)).filter((finding) => new URL(finding.location.url).pathname === '/' || finding.location.url.includes('index.html'));

    expect(home.filter((finding) => finding.rule_id === 'accessibility.image-alt')).toHaveLength(1);
    expect(home.every((finding) => finding.location.url === at('/'))).toBe(true);
  });

  it('never fetches another spelling of an audited page, a disallowed page or an excluded one', () => {
    expect(site.requests).toContain('/robots.txt');
    for (const path of ['/index.html', '/search?a=1&b=2', '/about', '/private/report', '/drafts/next']) expect(site.requests, path).not.toContain(path);
  });

  it('lists the page robots.txt disallows as a crawl problem, and neither duplicates nor excluded pages', () => {
    expect(scan.crawl_problems).toEqual([{ url: at('/private/report'), reason: 'robots_disallowed' }]);
  });

  it('checks the patterns and shows the new settings with their defaults', async () => {
    const bad = await a('POST', '/projects', { name: 'Bad patterns', target: site.url, crawl: { exclude: ['drafts/'] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_error', errors: [expect.objectContaining({ path: 'body.crawl.exclude.0' })] });
    const tooMany = await a('POST', '/projects', { name: 'Bad patterns', target: site.url, crawl: { include: Array.from({ length: 21 }, (_, i) => `/p${i}`) } });
    expect(tooMany.body.errors[0].path).toBe('body.crawl.include');

    const plain = await a('POST', '/projects', { name: 'Defaults', target: site.url });
    expect(plain.body.crawl).toEqual({ max_pages: 10, timeout_seconds: 10, max_page_bytes: 2 * 1024 * 1024, respect_robots_txt: true, include: [], exclude: [] });
    const staging = await a('PATCH', `/projects/${plain.body.project_id}`, { crawl: { respect_robots_txt: false, include: ['/docs/'] } });
    expect(staging.body.crawl).toMatchObject({ max_pages: 10, respect_robots_txt: false, include: ['/docs/'], exclude: [] });
  });
});
