/**
 * The accessibility detector: renders each crawled HTML page in a real browser (the PageRenderer
 * the scan runner passes in: headless Chromium, every request through the SSRF guard) and runs
 * axe-core there, so page scripts run, layout exists, and contrast and focus rules decide. Each
 * violating element becomes a finding, placed in the fetched HTML when it is there (jsdom only
 * parses the source for that; it runs nothing). See docs/accessibility-detector.md.
 */
import axe from 'axe-core';
import { JSDOM, VirtualConsole } from 'jsdom';
import type { DetectedFinding, Detector, DetectorInput, FetchedPage, FindingLocation } from '#shared/scans/model';
import type { PageRenderer } from '#shared/scans/page-renderer';
import { accessibilityRules, EXCLUDED_TAGS, LEVEL_TAGS, RULE_PREFIX, sentence, severityForImpact, tagsFor, wcagLevelFrom, type AxeRuleEntry } from '#shared/scans/detectors/accessibility-rules';
import { criterionUrls } from '#shared/scans/detectors/wcag-criteria';

const SNIPPET_LIMIT = 500;

/** All levels' tags: the table keeps only these of a rule's tags, since levels select by them alone. */
const ALL_LEVEL_TAGS = new Set(Object.values(LEVEL_TAGS).flat());

// axe's public getRules() omits a rule's declared impact; the loaded audit has it.
function declaredImpact(ruleId: string): axe.ImpactValue | undefined {
  const audit = (axe as unknown as { _audit?: { rules?: { id: string; impact?: axe.ImpactValue }[] } })._audit;
  return audit?.rules?.find((r) => r.id === ruleId)?.impact;
}

/**
 * The rule table of the installed axe-core, in axe's order, with the rules some level runs.
 * `npm run generate:accessibility-rules` writes it to accessibility-rule-table.ts; a unit test
 * fails when the two differ (after an axe-core upgrade).
 */
export function axeRuleTable(): AxeRuleEntry[] {
  return axe
    .getRules()
    .filter((rule) => !rule.tags.some((tag) => EXCLUDED_TAGS.includes(tag)))
    .map((rule) => {
      const impact = declaredImpact(rule.ruleId);
      return {
        id: rule.ruleId,
        help: rule.help,
        description: rule.description,
        help_url: rule.helpUrl,
        level_tags: rule.tags.filter((tag) => ALL_LEVEL_TAGS.has(tag)),
        ...(impact ? { impact } : {}),
      };
    })
    // Rules no WCAG level selects (best practices) are never run, so never described.
    .filter((rule) => rule.level_tags.length > 0);
}

/**
 * A cut-off page would give wrong results and a huge one would hold the browser, so pages the
 * crawler truncated, or over 1 MB, are skipped (the crawl reports them as `too_large`).
 */
export const MAX_AUDITED_PAGE_CHARS = 1_000_000;

function isHtmlPage(page: FetchedPage): boolean {
  return /\b(text\/html|application\/xhtml\+xml)\b/i.test(page.content_type) && page.body.length > 0 && !page.truncated && page.body.length <= MAX_AUDITED_PAGE_CHARS;
}

function selectorText(target: axe.UnlabelledFrameSelector): string {
  // Shadow-DOM paths and frame paths have no single CSS selector; ' >>> ' marks each boundary.
  return target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : part)).join(' >>> ');
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** The part of parse5's element location we use (jsdom returns it from `nodeLocation`). */
interface SourceSpan {
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
}
interface SourceLocation extends SourceSpan {
  startTag?: SourceSpan;
}

/** What the in-page audit sends back for one violation: plain data, since it crosses into Node. */
interface PageViolation {
  id: string;
  impact?: axe.ImpactValue;
  tags: string[];
  description: string;
  help: string;
  helpUrl: string;
  nodes: { target: axe.UnlabelledFrameSelector; html: string; impact?: axe.ImpactValue; failureSummary?: string }[];
}

/** Runs in the rendered page after axe's source: the violations at the scan's level, as data. */
async function auditInPage({ tags }: { tags: string[] }): Promise<PageViolation[]> {
  const pageAxe = (globalThis as unknown as { axe: typeof axe }).axe;
  const results = await pageAxe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    tags: v.tags,
    description: v.description,
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, impact: n.impact, failureSummary: n.failureSummary })),
  }));
}

/** The fetched HTML, parsed only to find where a rendered element starts in the source. */
class SourceMap {
  private dom: JSDOM | undefined;
  constructor(private readonly page: FetchedPage) {}

  /** Where `selector`'s element starts in the source, if the source has that very element (same start tag). */
  locate(selector: string, html: string): Pick<FindingLocation, 'line' | 'column' | 'end_line' | 'end_column'> {
    if (selector.includes(' >>> ')) return {};
    // A parse with no scripts, no subresources and a silent console: only the markup's positions.
    this.dom ??= new JSDOM(this.page.body, { url: this.page.final_url, contentType: 'text/html', includeNodeLocations: true, virtualConsole: new VirtualConsole() });
    let element: Element | null;
    try {
      element = this.dom.window.document.querySelector(selector);
    } catch {
      return {};
    }
    // A script may have built or changed the element: then the source has no place for it.
    if (!element || startTag(element.outerHTML) !== startTag(html)) return {};
    const source = this.dom.nodeLocation(element) as SourceLocation | null | undefined;
    const tag = source?.startTag ?? source;
    // parse5 counts lines and columns from 1, and its end column points just past the last
    // character, which is exactly SARIF's region convention.
    return tag ? { line: tag.startLine, column: tag.startCol, end_line: tag.endLine, end_column: tag.endCol } : {};
  }

  close(): void {
    this.dom?.window.close();
  }
}

function startTag(html: string): string {
  return html.slice(0, html.indexOf('>') + 1).replace(/\s+/g, ' ');
}

function toFinding(source: SourceMap, page: FetchedPage, violation: PageViolation, node: PageViolation['nodes'][number]): DetectedFinding {
  const summary = node.failureSummary?.trim();
  const selector = selectorText(node.target);
  return {
    detector: 'accessibility',
    rule_id: `${RULE_PREFIX}${violation.id}`,
    severity: severityForImpact(node.impact ?? violation.impact),
    title: violation.help,
    description: summary ? `${sentence(violation.description)}\n\n${summary}` : sentence(violation.description),
    location: { type: 'url', url: page.final_url, selector, snippet: truncate(node.html, SNIPPET_LIMIT), ...source.locate(selector, node.html) },
    remediation: `${summary ?? violation.help}\n\nSee ${violation.helpUrl}`,
    references: [...criterionUrls(violation.tags), violation.helpUrl],
    cvss_score: 0,
  };
}

/** Renders one page and audits it; a page that cannot be rendered is reported, not thrown (its failure returned). */
async function auditPage(renderer: PageRenderer, page: FetchedPage, tags: string[], input: DetectorInput): Promise<DetectedFinding[] | { failure: string }> {
  const outcome = await renderer.evaluate(page, { libraries: [axe.source], run: auditInPage, arg: { tags } });
  if (!outcome.ok) {
    input.reportProblem?.({ url: page.final_url, reason: outcome.reason, detail: outcome.message });
    return { failure: `${page.final_url}: ${outcome.reason} (${outcome.message})` };
  }
  for (const url of outcome.blocked_requests.slice(0, MAX_BLOCKED_REPORTED)) input.reportProblem?.({ url, reason: 'blocked_subresource', detail: `requested by ${page.final_url}; refused by the scan's network guard` });
  const source = new SourceMap(page);
  try {
    return outcome.value.flatMap((violation) => violation.nodes.map((node) => toFinding(source, page, violation, node)));
  } finally {
    source.close();
  }
}

/** Refused subresources reported per page: enough to see what a page tried to reach. */
const MAX_BLOCKED_REPORTED = 5;

/** The accessibility detector. `rules` lists every rule reportable at the highest level (AAA). */
export const accessibilityDetector: Detector = {
  name: 'accessibility',
  rules: accessibilityRules('AAA'),
  usesBrowser: true,
  async run(input: DetectorInput): Promise<DetectedFinding[]> {
    const tags = tagsFor(wcagLevelFrom(input.options));
    if (!input.renderer) throw new Error('the accessibility detector renders pages and was given no browser');
    const findings: DetectedFinding[] = [];
    const failures: string[] = [];
    // One page at a time: each is a browser tab running the page's scripts and axe, bounded apart.
    const pages = input.crawl.pages.filter(isHtmlPage);
    for (const page of pages) {
      const deadline = input.deadline;
      if (deadline !== undefined && Date.now() >= deadline) {
        input.reportProblem?.({ url: page.final_url, reason: 'scan_time_exhausted', detail: 'the detector ran out of time before this page' });
        continue;
      }
      const audited = await auditPage(input.renderer, page, tags, input);
      if (Array.isArray(audited)) findings.push(...audited);
      else failures.push(audited.failure);
    }
    // Not one page rendered (a browser that cannot start, say): no finding would mean nothing, so the run fails and says why.
    if (pages.length > 0 && failures.length === pages.length) throw new Error(`No page could be rendered in the browser: ${failures.slice(0, 3).join('; ')}`);
    return findings;
  },
};
