import sparticuz from '@sparticuz/chromium';
import { CHROMIUM_BIN_DIR_ENV, CHROMIUM_PATH_ENV, launchChromium, type LaunchedBrowser } from '#shared/adapters/browser/chromium';
import { browserPageRenderer } from '#shared/adapters/browser/page-renderer';
import { httpCrawlOptions } from '#shared/adapters/http/fetch-page';
import { scanDetectorWorker } from '#shared/config/topology';
import { crawl } from '#shared/scans/crawler/crawl';
import { accessibilityDetector } from '#shared/scans/detectors/accessibility';
import { RULE_PREFIX, tagsFor, wcagLevelFrom } from '#shared/scans/detectors/accessibility-rules';
import type { FetchedPage } from '#shared/scans/model';
import type { PageRenderer } from '#shared/scans/page-renderer';
import { DEFAULT_CRAWL } from '#shared/scans/scan';
import { renderLimitsFor } from '#shared/services/scan-runner';
import { ACCESSIBILITY_SITE_PAGES, startAccessibilitySite } from '../../test/support/accessibility-site';
import { measureChromiumInflation } from '../accessibility/chromium-inflation';
import { countByRule, sameEveryRound, type RuleCounts } from '../accessibility/finding-counts';
import { jsdomAudit } from '../accessibility/jsdom-audit';
import { ownPeakRssBytes, ownRssBytes, resetOwnPeakRss, sampleDescendantRss } from '../accessibility/process-memory';
import { accessibilityScanCost, FREE_EPHEMERAL_MB } from '../accessibility/scan-cost';
import type { BenchConfig } from '../config';
import { machineInfo } from '../machine';
import { progress } from '../progress';
import type { AccessibilityPage, AccessibilityReport } from '../results';
import { median, summarize } from '../stats';

/** The sampling period of the browser's memory. */
const SAMPLE_MS = 20;

/** Evaluates nothing: a trivial page's time is then a page's fixed cost (and, first in a renderer, the launch). */
const TRIVIAL_SCRIPT = { libraries: [], run: () => 1, arg: undefined };

/**
 * The accessibility detector in a browser beside the jsdom audit it replaced, on the bundled site
 * crawled as a scan crawls it: per page time and findings of each, the browser's launch and
 * memory, the inflation a cold Lambda environment pays, and the scan's price on AWS.
 */
export async function run(config: BenchConfig): Promise<AccessibilityReport> {
  const site = await startAccessibilitySite();
  try {
    const settings = DEFAULT_CRAWL;
    const fetchOptions = { maxBytes: settings.max_page_bytes, timeoutMs: settings.timeout_seconds * 1000, allowLoopback: true };
    const crawlStarted = performance.now();
    const crawled = await crawl(site.url, httpCrawlOptions({ ...fetchOptions, maxPages: settings.max_pages, respectRobotsTxt: settings.respect_robots_txt }));
    const crawlMs = performance.now() - crawlStarted;
    const paths = crawled.pages.map((page) => new URL(page.final_url).pathname);
    if (paths.join() !== ACCESSIBILITY_SITE_PAGES.join()) progress(`accessibility: the crawl reached ${paths.join(', ')}, not the site's ${ACCESSIBILITY_SITE_PAGES.join(', ')}`);
    const level = wcagLevelFrom({});
    const rounds = config.accessibilityRounds;

    progress('accessibility: inflating the packed browser into scratch files');
    const inflation = await measureChromiumInflation(Math.min(3, rounds));

    progress(`accessibility: jsdom audit, ${crawled.pages.length} pages × ${rounds} rounds`);
    const jsdom = await measureJsdom(crawled.pages, tagsFor(level), rounds);

    // Inflated now if it was not yet, so that no launch below includes the inflation.
    const executable = process.env[CHROMIUM_PATH_ENV] || (await sparticuz.executablePath(process.env[CHROMIUM_BIN_DIR_ENV] || undefined));
    const renderLimits = renderLimitsFor(settings.timeout_seconds);
    const newRenderer = (launch = launchChromium) => browserPageRenderer({ ...renderLimits, ...fetchOptions, launch });
    const trivialPage = pageAt(site.url, '__bench-trivial', '<!doctype html><html lang="en"><title>Trivial</title><p>Nothing here.</p></html>');

    progress(`accessibility: browser launches × ${rounds}`);
    const launches = await measureLaunches(newRenderer, trivialPage, rounds);

    progress(`accessibility: browser audit, ${crawled.pages.length} pages × ${rounds} rounds`);
    const browser = await measureBrowser(newRenderer(), trivialPage, crawled.pages, rounds, executable);

    const pages: AccessibilityPage[] = crawled.pages.map((page, index) => ({
      path: paths[index],
      bytes: Buffer.byteLength(page.body),
      browser: summarize(browser.times[index]),
      jsdom: summarize(jsdom.times[index]),
      browserFindings: browser.findings[index][0],
      jsdomFindings: jsdom.findings[index][0],
      findingsVaried: ![browser.findings[index], jsdom.findings[index]].every(sameEveryRound),
      problems: browser.problems[index],
    }));
    // Read after the memory was measured: the CDK construct library is not part of the function.
    const { CHROMIUM_EPHEMERAL_MB, chromiumVersion } = await import('#lib/constructs/chromium-layer');
    const functions = { browser: { memoryMb: scanDetectorWorker.memoryMb, ephemeralMb: CHROMIUM_EPHEMERAL_MB }, jsdom: { memoryMb: scanDetectorWorker.memoryMb, ephemeralMb: FREE_EPHEMERAL_MB } };
    const sumOfMedians = (perPage: number[][]) => perPage.reduce((sum, times) => sum + median(times), 0);
    const launch = summarize(launches.launchCall);
    const cost = accessibilityScanCost({ launchMs: launch.p50, inflateMs: inflation.totalMs, browserPagesMs: sumOfMedians(browser.times), jsdomPagesMs: sumOfMedians(jsdom.times) }, functions);
    return {
      site: { pages: crawled.pages.length, crawlMs, problems: crawled.problems.length, wcagLevel: level },
      machine: (({ cpus, cpuModel }) => ({ cpus, cpuModel }))(machineInfo()),
      rounds,
      renderLimits,
      pages,
      browser: {
        chromiumVersion: chromiumVersion(),
        executable,
        firstPage: summarize(launches.firstPage),
        trivialPage: summarize(launches.trivialPage),
        launch,
        firstPageExtra: summarize(launches.extra),
        site: summarize(perRoundTotals(browser.times)),
        memory: browser.memory,
      },
      jsdom: { site: summarize(perRoundTotals(jsdom.times)), memory: jsdom.memory },
      inflation,
      functions,
      cost,
    };
  } finally {
    await site.close();
  }
}

function pageAt(siteUrl: string, path: string, body: string): FetchedPage {
  const url = new URL(path, siteUrl).href;
  return { url, final_url: url, status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, set_cookies: [], content_type: 'text/html; charset=utf-8', body, truncated: false };
}

/** Each round's pages one after the other, as the detector runs them: the whole site per run. */
function perRoundTotals(perPage: number[][]): number[] {
  return perPage[0].map((_, round) => perPage.reduce((sum, times) => sum + times[round], 0));
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Per page times and rule counts of the former audit, one unmeasured round first; this process's peak RSS over the rounds. */
async function measureJsdom(pages: FetchedPage[], tags: string[], rounds: number) {
  for (const page of pages) await jsdomAudit(page, tags);
  const times = pages.map((): number[] => []);
  const findings = pages.map((): RuleCounts[] => []);
  const nodeRssBeforeBytes = ownRssBytes();
  resetOwnPeakRss();
  for (let round = 0; round < rounds; round++) {
    for (const [index, page] of pages.entries()) {
      const { ms, value } = await timed(() => jsdomAudit(page, tags));
      times[index].push(ms);
      findings[index].push(countByRule(value.map((node) => node.rule)));
    }
  }
  return { times, findings, memory: { nodeRssBeforeBytes, peakNodeRssBytes: ownPeakRssBytes() } };
}

/**
 * A new renderer per round, as every detector run starts its own browser and closes it at the end:
 * its first, trivial page launches the browser, whose `launchChromium` is timed through the
 * renderer's `launch`; the same page once launched shows what the first one took beyond that.
 */
async function measureLaunches(newRenderer: (launch: () => Promise<LaunchedBrowser>) => PageRenderer, trivialPage: FetchedPage, rounds: number) {
  const firstPage: number[] = [];
  const trivial: number[] = [];
  const launchCall: number[] = [];
  const timedLaunch = async () => {
    const { ms, value } = await timed(launchChromium);
    launchCall.push(ms);
    return value;
  };
  for (let round = 0; round < rounds; round++) {
    const renderer = newRenderer(timedLaunch);
    try {
      firstPage.push((await timedRender(renderer, trivialPage)).ms);
      trivial.push((await timedRender(renderer, trivialPage)).ms);
    } finally {
      await renderer.close();
    }
  }
  return { firstPage, trivialPage: trivial, extra: firstPage.map((ms, round) => ms - trivial[round]), launchCall };
}

async function timedRender(renderer: PageRenderer, page: FetchedPage) {
  const rendered = await timed(() => renderer.evaluate(page, TRIVIAL_SCRIPT));
  if (!rendered.value.ok) throw new Error(`the trivial page failed to render: ${rendered.value.message}`);
  return rendered;
}

/**
 * `accessibilityDetector.run` on one page at a time with one warm renderer (launched by a trivial
 * page, then an unmeasured round), while the browser's processes' RSS is sampled; this process's
 * own peak RSS over the same window.
 */
async function measureBrowser(renderer: PageRenderer, launchPage: FetchedPage, pages: FetchedPage[], rounds: number, executable: string) {
  const times = pages.map((): number[] => []);
  const findings = pages.map((): RuleCounts[] => []);
  const problems = pages.map((): string[] => []);
  const audit = async (page: FetchedPage, index: number, measured: boolean) => {
    const reported: string[] = [];
    const { ms, value } = await timed(() => accessibilityDetector.run({ target: page.final_url, crawl: { pages: [page], problems: [] }, fetchPath: async () => undefined, options: {}, renderer, reportProblem: (problem) => reported.push(`${problem.reason}: ${problem.url}`) }));
    if (!measured) return;
    times[index].push(ms);
    findings[index].push(countByRule(value.map((finding) => finding.rule_id.slice(RULE_PREFIX.length))));
    if (problems[index].length === 0) problems[index].push(...reported);
  };
  const nodeRssBeforeBytes = ownRssBytes();
  resetOwnPeakRss();
  const sampler = sampleDescendantRss(executable, SAMPLE_MS);
  const started = performance.now();
  let peak;
  try {
    await timedRender(renderer, launchPage);
    for (const [index, page] of pages.entries()) await audit(page, index, false);
    for (let round = 0; round < rounds; round++) for (const [index, page] of pages.entries()) await audit(page, index, true);
  } finally {
    peak = sampler.stop();
    await renderer.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    times,
    findings,
    problems,
    memory: { peakBrowserRssBytes: peak.peakBytes, browserProcesses: peak.processes, samples: peak.samples, sampleIntervalMs: SAMPLE_MS, sampledSeconds: seconds, nodeRssBeforeBytes, peakNodeRssBytes: ownPeakRssBytes() },
  };
}
