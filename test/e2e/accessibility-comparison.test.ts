import AxeBuilder from '@axe-core/playwright';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tagsFor } from '#shared/scans/detectors/accessibility-rules';
import { launchChromium } from '../browser/support/chromium';
import { ACCESSIBILITY_SITE_PAGES, startAccessibilitySite, type AccessibilitySite } from '../support/accessibility-site';
import { apiClient, scanEnded, startTestRuntime, type TestRuntime } from '../support/local-runtime';

/**
 * The reference a user compares us with: axe-core itself, run by Deque's @axe-core/playwright in
 * Chromium on the same pages at the same WCAG level. A Gatehouse scan of the bundled site must
 * report the same rules with the same number of elements on every page.
 */

type Counts = Record<string, Record<string, number>>;

function count(counts: Counts, page: string, rule: string, by = 1): void {
  counts[page] ??= {};
  counts[page][rule] = (counts[page][rule] ?? 0) + by;
}

let runtime: TestRuntime;
let site: AccessibilitySite;
let browser: Browser;
let scan: any;
let ours: Counts;

describe('accessibility findings against axe-core in Chromium', () => {
  beforeAll(async () => {
    site = await startAccessibilitySite();
    runtime = await startTestRuntime('a11y-compare');
    const a = apiClient(runtime.baseUrl, runtime.keys.a);
    const project = await a('POST', '/projects', { name: 'Harbour Books', target: site.url, crawl: { max_pages: 10, timeout_seconds: 5 } });
    const created = await a('POST', `/projects/${project.body.project_id}/scans`, { detectors: ['accessibility'], detector_options: { accessibility: { wcag_level: 'AA' } } });
    scan = await scanEnded(a, created.body.scan_id, 150_000);
    const { body } = await a('GET', `/scans/${created.body.scan_id}/findings?limit=200`);
    expect(body.next_cursor ?? null).toBeNull();
    ours = {};
    // A template's element on several pages is one finding with several locations: counted on each page.
    for (const finding of body.data) {
      for (const location of [finding.location, ...(finding.other_locations ?? [])]) count(ours, new URL(location.url).pathname, finding.rule_id.replace(/^accessibility\./, ''));
    }
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await runtime?.stop();
    await site?.close();
  });

  it('audits every page of the site, and counts a cover image without alt on two pages as one finding', async () => {
    expect(scan.status).toBe('completed');
    const { body } = await apiClient(runtime.baseUrl, runtime.keys.a)('GET', `/scans/${scan.scan_id}/findings?limit=200`);
    const coverOne = body.data.filter((finding: any) => finding.rule_id === 'accessibility.image-alt' && finding.location.snippet === '<img src="/cover-1.svg">');
    expect(coverOne).toEqual([expect.objectContaining({ page_count: 2, location: expect.objectContaining({ url: site.url }), other_locations: [expect.objectContaining({ url: new URL('/catalogue.html', site.url).href })] })]);
    expect(scan.crawl_problems?.filter((problem: { reason: string }) => !problem.reason.startsWith('http_4')) ?? []).toEqual([]);
  });

  it('reports per page the rules and element counts axe reports in Chromium at AA', async () => {
    const axe: Counts = {};
    for (const path of ACCESSIBILITY_SITE_PAGES) {
      // @axe-core/playwright wants a page of a context of ours (it opens a blank page beside it).
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(new URL(path, site.url).href, { waitUntil: 'networkidle' });
        const results = await new AxeBuilder({ page }).withTags(tagsFor('AA')).analyze();
        for (const violation of results.violations) count(axe, path, violation.id, violation.nodes.length);
      } finally {
        await context.close();
      }
    }

    // Not a vacuous comparison: the problems only a browser sees are among them.
    expect(axe['/']).toMatchObject({ 'color-contrast': 2, 'image-alt': 1 });
    expect(axe['/app.html']).toMatchObject({ 'image-alt': 2, 'button-name': 2 });
    expect(axe['/widgets.html']).toMatchObject({ 'target-size': expect.any(Number), 'aria-hidden-focus': 1 });
    expect(axe['/members.html']).toBeUndefined();
    expect(ours).toEqual(axe);
  });
});
