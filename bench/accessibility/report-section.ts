import { num, table, usd } from '../markdown';
import { PRICES, PRICES_RECORDED_ON } from '../prices';
import type { AccessibilityReport } from '../results';
import type { LatencySummary } from '../stats';
import { ruleDifferences, totalOf } from './finding-counts';
import type { PricedRun } from './scan-cost';

/** The accessibility phase's part of docs/benchmarks.md and of the console summary. */

const MB = 1024 ** 2;
const mb = (bytes: number) => num(bytes / MB);
const p50Max = (summary: LatencySummary) => `${num(summary.p50)} / ${num(summary.max)}`;
// A scan costs fractions of a cent: three significant figures instead of usd()'s four decimals.
const perScan = (value: number) => (value === 0 ? '–' : `$${value.toPrecision(3)}`);

function differences(page: AccessibilityReport['pages'][number]): string {
  const differing = ruleDifferences(page.browserFindings, page.jsdomFindings).map((entry) => `${entry.rule} ${entry.browser} / ${entry.jsdom}`);
  return differing.join(', ') || '–';
}

function costRow(run: PricedRun, jsdom: PricedRun): (string | number)[] {
  return [run.label, run.architecture, run.memoryMb, run.ephemeralMb, run.billedMs, num(run.gbSeconds, 3), perScan(run.usd.compute), perScan(run.usd.ephemeral), perScan(run.usd.request), `**${perScan(run.usd.total)}**`, usd(run.usd.total * 1e6), num(run.usd.total / jsdom.usd.total, 1)];
}

export function accessibilitySection(report: AccessibilityReport | undefined): string[] {
  if (!report) return [];
  const { browser, jsdom, inflation, cost, machine } = report;
  const pagesMedian = report.pages.reduce((sum, page) => sum + page.browser.p50, 0) / report.pages.length;
  const chromium = inflation.files.find((file) => file.file === 'chromium.br');
  const varied = report.pages.filter((page) => page.findingsVaried).map((page) => page.path);
  const problems = report.pages.flatMap((page) => page.problems.map((problem) => `${page.path}: ${problem}`));
  return [
    '### Accessibility in a browser',
    '',
    `No numeric target. The bundled site (\`test/fixtures/accessibility-site/\`) crawled as a scan crawls it with the default limits (${report.site.pages} pages in ${num(report.site.crawlMs)} ms; ${report.site.problems} link(s) that gave no page), then audited at WCAG level ${report.site.wcagLevel} one page at a time: by \`accessibilityDetector.run\` in headless Chromium (@sparticuz/chromium ${browser.chromiumVersion}, one renderer kept warm, a scan's render limits: network idle waited for up to ${num(report.renderLimits.networkIdleMs)} ms), and by the former audit (axe-core in jsdom: no page script, no stylesheet, no layout). ${report.rounds} measured round(s) per page after one unmeasured round; a page's time includes building its findings.`,
    '',
    ...table(
      ['Page', 'Bytes', 'Browser p50 / max ms', 'jsdom p50 / max ms', 'Browser ÷ jsdom (p50)', 'Elements found, browser / jsdom', 'Rules that differ (browser / jsdom)'],
      [
        ...report.pages.map((page) => [`\`${page.path}\``, page.bytes, p50Max(page.browser), p50Max(page.jsdom), num(page.browser.p50 / page.jsdom.p50, 1), `${totalOf(page.browserFindings)} / ${totalOf(page.jsdomFindings)}`, differences(page)]),
        ['**whole site, per detector run** (launch excluded)', report.pages.reduce((sum, page) => sum + page.bytes, 0), `**${p50Max(browser.site)}**`, `**${p50Max(jsdom.site)}**`, num(browser.site.p50 / jsdom.site.p50, 1), `${report.pages.reduce((sum, page) => sum + totalOf(page.browserFindings), 0)} / ${report.pages.reduce((sum, page) => sum + totalOf(page.jsdomFindings), 0)}`, ''],
      ],
    ),
    '',
    ...(varied.length ? [`Findings varied between rounds on ${varied.join(', ')}; the table shows the first measured round.`, ''] : []),
    ...(problems.length ? [`Reported by the detector: ${problems.slice(0, 8).join('; ')}.`, ''] : []),
    `**Cold start of every detector run: ${num(browser.launch.p50)} ms** (max ${num(browser.launch.max)} ms of ${browser.launch.count} launches): \`launchChromium\`, the browser server started from the inflated binary and connected to, timed inside a new renderer's first, trivial page. That page took ${num(browser.firstPage.p50)} ms and the same page once launched ${num(browser.trivialPage.p50)} ms (medians; ${num(browser.firstPageExtra.p50)} ms more per launch, paired, within a page's own noise). A run launches its own browser and closes it at its end, so every scan pays it.`,
    '',
    `**Fixed cost per page: ${num(browser.trivialPage.p50)} ms** for a page with nothing to load or audit: a tab, the crawled document, Playwright's network-idle wait (500 ms without a request, by its definition, however quiet the page), the close. The site's pages took ${num(pagesMedian)} ms on average at the median, so axe's injection and run, the subresources and the findings took about ${num(pagesMedian - browser.trivialPage.p50)} ms of each; the fixed cost is ${num((100 * browser.trivialPage.p50 * report.pages.length) / browser.site.p50)} % of the site's time.`,
    '',
    `**Memory.** The browser (${browser.memory.browserProcesses} process${browser.memory.browserProcesses === 1 ? ': the single-process build' : 'es'}) peaked at **${mb(browser.memory.peakBrowserRssBytes)} MB** resident (VmRSS summed over its processes, ${browser.memory.samples} samples every ${browser.memory.sampleIntervalMs} ms over ${num(browser.memory.sampledSeconds, 1)} s). This Node process peaked at ${mb(browser.memory.peakNodeRssBytes)} MB over the same window (${mb(browser.memory.nodeRssBeforeBytes)} MB before it; it is the bench's process, which loads more than the function's bundle). The jsdom audit took this process from ${mb(jsdom.memory.nodeRssBeforeBytes)} MB to a peak of ${mb(jsdom.memory.peakNodeRssBytes)} MB (**+${mb(jsdom.memory.peakNodeRssBytes - jsdom.memory.nodeRssBeforeBytes)} MB**). Browser and Node together: ${mb(browser.memory.peakBrowserRssBytes + browser.memory.peakNodeRssBytes)} MB of the function's ${report.functions.browser.memoryMb} MB.`,
    '',
    `**Inflation, once per Lambda environment.** @sparticuz/chromium inflates its Brotli files into an empty /tmp before the first launch: ${inflation.files.map((file) => `\`${file.file}\` ${num(file.compressedBytes / MB, 1)} → ${num(file.inflatedBytes / MB, 1)} MB in ${num(file.ms)} ms`).join(', ')}; **${num(inflation.totalMs)} ms** one after the other (median of ${inflation.rounds}, into a scratch directory${chromium ? `; the binary alone ${num(chromium.ms)} ms` : ''}). The launch above excludes it (the browser was inflated here already).`,
    '',
    `**Cost per scan of the bundled site** (the accessibility detector's run: browser launch and pages at the per-page medians, plus the inflation in a cold environment), one invocation each, at list prices recorded ${PRICES_RECORDED_ON}: x86_64 $${PRICES.lambdaX86GbSecond.usd} and arm64 $${PRICES.lambdaArmGbSecond.usd} per GB-second, ephemeral storage above 512 MB $${PRICES.lambdaEphemeralGbSecond.usd.toFixed(10)} per GB-second, $${num(PRICES.lambdaRequest.usd * 1e6, 2)} per million invocations. Left out: the crawl and the run's DynamoDB writes (the same for both audits) and the function's init (not measured here).`,
    '',
    ...table(
      ['Detector run', 'Architecture', 'Memory MB', 'Ephemeral MB', 'Billed ms', 'GB-s', 'Compute', 'Ephemeral storage', 'Invocation', '$ per scan', '$ per million scans', '× jsdom'],
      [costRow(cost.browserWarm, cost.jsdom), costRow(cost.browserCold, cost.jsdom), costRow(cost.jsdom, cost.jsdom)],
    ),
    '',
    `Times are this machine's (${machine.cpus} × ${machine.cpuModel}; Node and the browser could use all its cores). Lambda gives a function CPU in proportion to its memory: at ${report.functions.browser.memoryMb} MB about 1.15 vCPU, which Node and the browser share there, so the CPU-bound parts (launch, inflation, axe's run, jsdom's audit) may take longer on Lambda; the network-idle wait does not change.`,
    '',
  ];
}

/** The phase in the terminal: time, findings, memory and cost, each on one line. */
export function accessibilitySummary(report: AccessibilityReport | undefined): string[] {
  if (!report) return [];
  const { browser, jsdom, cost } = report;
  const browserElements = report.pages.reduce((sum, page) => sum + totalOf(page.browserFindings), 0);
  const jsdomElements = report.pages.reduce((sum, page) => sum + totalOf(page.jsdomFindings), 0);
  const onlyBrowser = [...new Set(report.pages.flatMap((page) => ruleDifferences(page.browserFindings, page.jsdomFindings).filter((entry) => entry.jsdom === 0).map((entry) => entry.rule)))].sort();
  return [
    `latency  accessibility, bundled site (${report.pages.length} pages): browser ${num(browser.site.p50)} ms per run + ${num(browser.launch.p50)} ms launch, jsdom ${num(jsdom.site.p50)} ms (p50)`,
    `findings accessibility: browser ${browserElements} elements, jsdom ${jsdomElements}${onlyBrowser.length ? `; rules the browser found on pages where jsdom found none: ${onlyBrowser.join(', ')}` : ''}`,
    `memory   accessibility: browser peak ${mb(browser.memory.peakBrowserRssBytes)} MB RSS, Node ${mb(browser.memory.peakNodeRssBytes)} MB; jsdom +${mb(jsdom.memory.peakNodeRssBytes - jsdom.memory.nodeRssBeforeBytes)} MB in Node`,
    `cost     accessibility scan of the bundled site: ${usd(cost.browserWarm.usd.total * 1e6)}/M warm, ${usd(cost.browserCold.usd.total * 1e6)}/M cold (x86_64), jsdom ${usd(cost.jsdom.usd.total * 1e6)}/M (arm64)`,
  ];
}
