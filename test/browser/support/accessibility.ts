import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { browserPageRenderer } from '#shared/adapters/browser/page-renderer';
import { accessibilityDetector } from '#shared/scans/detectors/accessibility';
import type { PageRenderer } from '#shared/scans/page-renderer';
import { severityForImpact } from '#shared/scans/detectors/accessibility-rules';
import { SEVERITIES, type Severity } from '#shared/scans/model';

const BLOCKING_IMPACTS = ['serious', 'critical'] as const;

// Our detector maps axe impacts one step down (serious is `medium`), so "serious or critical"
// is every severity from serious's upwards.
const BLOCKING_SEVERITIES: Severity[] = SEVERITIES.slice(0, SEVERITIES.indexOf(severityForImpact('serious')) + 1);

/** axe-core in the browser (WCAG 2.x A and AA rules): its serious and critical violations. */
async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const blocking = results.violations.filter((violation) => (BLOCKING_IMPACTS as readonly string[]).includes(violation.impact ?? ''));
  return blocking.map((violation) => `axe ${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes.map((node) => node.target.join(' ')).join('\n  ')}`);
}

let renderer: PageRenderer | undefined;

/**
 * The service's own accessibility detector, as a scan would run it (in its own browser, the
 * dashboard's stylesheets loaded from the local runtime), on a crawl of one page: the DOM as
 * rendered now (`page.content()`) without its scripts, which would start the app over signed out,
 * at the scan's default level (AA).
 */
async function detectorFindings(page: Page): Promise<string[]> {
  const url = page.url();
  const body = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, '');
  renderer ??= browserPageRenderer({ allowLoopback: true, timeoutMs: 5_000, maxBytes: 5_000_000, pageTimeoutMs: 30_000, networkIdleMs: 1_000, maxRequestsPerPage: 100, maxBytesPerPage: 20_000_000 });
  const fetched = { url, final_url: url, status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, set_cookies: [], content_type: 'text/html; charset=utf-8', body, truncated: false };
  const findings = await accessibilityDetector.run({ target: url, crawl: { pages: [fetched], problems: [] }, fetchPath: async () => undefined, options: {}, renderer });
  return findings.filter((finding) => BLOCKING_SEVERITIES.includes(finding.severity)).map((finding) => `detector ${finding.rule_id} (${finding.severity}): ${finding.title}\n  ${finding.location.selector ?? ''} ${finding.location.snippet ?? ''}`);
}

/** The page as it is now: no serious or critical violation, by axe-core nor by our own accessibility detector. */
export async function expectAccessible(page: Page): Promise<void> {
  const [axe, detector] = await Promise.all([axeViolations(page), detectorFindings(page)]);
  expect([...axe, ...detector], `accessibility violations on ${page.url()}`).toEqual([]);
}
