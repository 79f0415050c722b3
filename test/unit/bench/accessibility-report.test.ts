import { describe, expect, it } from 'vitest';
import { accessibilitySection, accessibilitySummary } from '../../../bench/accessibility/report-section';
import { accessibilityScanCost } from '../../../bench/accessibility/scan-cost';
import { benchConfig } from '../../../bench/config';
import { consoleSummary, renderResults } from '../../../bench/report';
import type { AccessibilityReport, BenchResults } from '../../../bench/results';

const MB = 1024 ** 2;
const summary = (p50: number, max = p50) => ({ count: 5, p50, p99: max, max });
const functions = { browser: { memoryMb: 2048, ephemeralMb: 1024 }, jsdom: { memoryMb: 2048, ephemeralMb: 512 } };

function report(): AccessibilityReport {
  return {
    site: { pages: 2, crawlMs: 80, problems: 4, wcagLevel: 'AA' },
    machine: { cpus: 2, cpuModel: 'Test CPU' },
    rounds: 5,
    renderLimits: { pageTimeoutMs: 30_000, networkIdleMs: 5_000, maxRequestsPerPage: 200, maxBytesPerPage: 20 * MB },
    pages: [
      { path: '/', bytes: 800, browser: summary(900, 950), jsdom: summary(100, 120), browserFindings: { 'color-contrast': 2, 'image-alt': 1 }, jsdomFindings: { 'image-alt': 1 }, findingsVaried: false, problems: [] },
      { path: '/app.html', bytes: 600, browser: summary(1000, 1100), jsdom: summary(100, 110), browserFindings: { 'button-name': 2 }, jsdomFindings: {}, findingsVaried: true, problems: ['blocked_subresource: http://10.0.0.1/x'] },
    ],
    browser: {
      chromiumVersion: '147.0.0',
      executable: '/tmp/chromium',
      firstPage: summary(950),
      trivialPage: summary(750),
      launch: summary(200, 260),
      firstPageExtra: summary(190, 250),
      site: summary(1900, 2000),
      memory: { peakBrowserRssBytes: 250 * MB, browserProcesses: 1, samples: 600, sampleIntervalMs: 20, sampledSeconds: 12, nodeRssBeforeBytes: 290 * MB, peakNodeRssBytes: 330 * MB },
    },
    jsdom: { site: summary(200, 230), memory: { nodeRssBeforeBytes: 257 * MB, peakNodeRssBytes: 288 * MB } },
    inflation: { rounds: 3, files: [{ file: 'chromium.br', compressedBytes: 61 * MB, inflatedBytes: 188 * MB, ms: 2200 }, { file: 'fonts.tar.br', compressedBytes: 0.2 * MB, inflatedBytes: 0.4 * MB, ms: 7 }], totalMs: 2207 },
    functions,
    cost: accessibilityScanCost({ launchMs: 200, inflateMs: 2207, browserPagesMs: 1900, jsdomPagesMs: 200 }, functions),
  };
}

describe('bench report: accessibility in a browser', () => {
  it('renders each page with both audits’ times and the rules whose findings differ', () => {
    const markdown = accessibilitySection(report()).join('\n');

    expect(markdown).toContain('### Accessibility in a browser');
    expect(markdown).toContain('| `/` | 800 | 900 / 950 | 100 / 120 | 9.0 | 3 / 1 | color-contrast 2 / 0 |');
    expect(markdown).toContain('| `/app.html` | 600 | 1000 / 1100 | 100 / 110 | 10.0 | 2 / 0 | button-name 2 / 0 |');
    expect(markdown).toContain('| **whole site, per detector run** (launch excluded) | 1400 | **1900 / 2000** | **200 / 230** | 9.5 | 5 / 1 |  |');
    expect(markdown).toContain('Findings varied between rounds on /app.html');
    expect(markdown).toContain('/app.html: blocked_subresource: http://10.0.0.1/x');
  });

  it('states the launch, the fixed cost per page, the memory and the inflation', () => {
    const markdown = accessibilitySection(report()).join('\n');

    expect(markdown).toContain('**Cold start of every detector run: 200 ms** (max 260 ms of 5 launches)');
    expect(markdown).toContain('That page took 950 ms and the same page once launched 750 ms (medians; 190 ms more per launch, paired');
    expect(markdown).toContain('**Fixed cost per page: 750 ms**');
    expect(markdown).toContain('the fixed cost is 79 % of the site');
    expect(markdown).toContain('peaked at **250 MB** resident');
    expect(markdown).toContain('(**+31 MB**)');
    expect(markdown).toContain('Browser and Node together: 580 MB of the function\'s 2048 MB');
    expect(markdown).toContain('`chromium.br` 61.0 → 188.0 MB in 2200 ms');
    expect(markdown).toContain('**2207 ms** one after the other');
  });

  it('prices the scan warm, cold and as the jsdom audit was, and says Lambda’s CPU differs', () => {
    const markdown = accessibilitySection(report()).join('\n');

    // 2.1 s × 2 GB × $0.0000166667 + 2.1 s × 0.5 GB × $0.0000000309 + $0.0000002 = $0.0000702; jsdom 0.2 s × 2 GB × $0.0000133334 + $0.0000002
    expect(markdown).toContain('| browser, warm environment (launch + pages) | x86_64 | 2048 | 1024 | 2100 | 4.200 | $0.0000700 | $3.24e-8 | $2.00e-7 | **$0.0000702** | $70.23 | 12.7 |');
    expect(markdown).toContain('| jsdom, before (pages) | arm64 | 2048 | 512 | 200 | 0.400 | $0.00000533 | – | $2.00e-7 | **$0.00000553** | $5.53 | 1.0 |');
    expect(markdown).toContain('about 1.15 vCPU');
    expect(markdown).toContain('2 × Test CPU');
  });

  it('sums the phase up in four console lines, and the whole report carries them', () => {
    const lines = accessibilitySummary(report());
    const results: BenchResults = { generatedAt: '2026-11-27T00:00:00.000Z', commit: 'abc', machine: { node: 'v22', platform: 'linux', arch: 'x64', cpus: 2, cpuModel: 'Test CPU', memoryGb: 8, loadAverage: [0, 0, 0] }, config: benchConfig({}), accessibility: report() };

    expect(lines).toEqual([
      'latency  accessibility, bundled site (2 pages): browser 1900 ms per run + 200 ms launch, jsdom 200 ms (p50)',
      'findings accessibility: browser 5 elements, jsdom 1; rules the browser found on pages where jsdom found none: button-name, color-contrast',
      'memory   accessibility: browser peak 250 MB RSS, Node 330 MB; jsdom +31 MB in Node',
      'cost     accessibility scan of the bundled site: $70.23/M warm, $143.83/M cold (x86_64), jsdom $5.53/M (arm64)',
    ]);
    expect(renderResults(results)).toContain('### Accessibility in a browser');
    expect(consoleSummary(results)).toEqual(expect.arrayContaining(lines));
  });

  it('renders nothing when the phase did not run', () => {
    expect(accessibilitySection(undefined)).toEqual([]);
    expect(accessibilitySummary(undefined)).toEqual([]);
  });
});
