/**
 * The accessibility detector: runs axe-core against each crawled HTML page inside jsdom and turns
 * every violating element into a finding. The page's own scripts never run; see
 * docs/accessibility-detector.md for what that, and the lack of a layout engine, leaves out.
 */
import axe from 'axe-core';
import { JSDOM, VirtualConsole } from 'jsdom';
import type { DetectedFinding, Detector, DetectorInput, FetchedPage, FindingLocation } from '#shared/scans/model';
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
 * axe runs synchronously in a DOM of the whole page: a cut-off page would give wrong results and
 * a huge one would block the worker, so pages the crawler truncated, or over 1 MB, are skipped
 * (the crawl reports them as `too_large`).
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

function locate(dom: JSDOM, page: FetchedPage, node: axe.NodeResult): FindingLocation {
  const location: FindingLocation = {
    type: 'url',
    url: page.final_url,
    selector: selectorText(node.target),
    snippet: truncate(node.html, SNIPPET_LIMIT),
  };
  // Elements the parser implied (an <html> the source never wrote) have no place in the source.
  const source = node.element ? (dom.nodeLocation(node.element) as SourceLocation | null | undefined) : undefined;
  const tag = source?.startTag ?? source;
  if (tag) {
    // parse5 (jsdom's parser) already counts lines and columns from 1, and its end column points
    // just past the last character, which is exactly SARIF's region convention.
    location.line = tag.startLine;
    location.column = tag.startCol;
    location.end_line = tag.endLine;
    location.end_column = tag.endCol;
  }
  return location;
}

function toFinding(dom: JSDOM, page: FetchedPage, violation: axe.Result, node: axe.NodeResult): DetectedFinding {
  const summary = node.failureSummary?.trim();
  return {
    detector: 'accessibility',
    rule_id: `${RULE_PREFIX}${violation.id}`,
    severity: severityForImpact(node.impact ?? violation.impact),
    title: violation.help,
    description: summary ? `${sentence(violation.description)}\n\n${summary}` : sentence(violation.description),
    location: locate(dom, page, node),
    remediation: `${summary ?? violation.help}\n\nSee ${violation.helpUrl}`,
    references: [...criterionUrls(violation.tags), violation.helpUrl],
    cvss_score: 0,
  };
}

/** Runs axe on one page in a fresh jsdom window that executes only axe itself. */
async function auditPage(page: FetchedPage, tags: string[]): Promise<DetectedFinding[]> {
  const dom = new JSDOM(page.body, {
    url: page.final_url,
    contentType: 'text/html',
    includeNodeLocations: true,
    // 'outside-only' gives the window an eval for our injected axe source while every <script>
    // and on* handler of the page stays inert; no `resources` option means no subresource
    // (script, stylesheet, iframe) is ever fetched.
    runScripts: 'outside-only',
    // A silent console: the page's CSS parse errors are not ours to log.
    virtualConsole: new VirtualConsole(),
  });
  try {
    const window = dom.window as unknown as { eval(code: string): unknown; axe: typeof axe };
    window.eval(axe.source);
    const results = await window.axe.run(dom.window.document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
      elementRef: true,
    });
    return results.violations.flatMap((violation) => violation.nodes.map((node) => toFinding(dom, page, violation, node)));
  } catch (error) {
    throw new Error(`accessibility audit of ${page.final_url} failed`, { cause: error });
  } finally {
    dom.window.close();
  }
}

/** The accessibility detector. `rules` lists every rule reportable at the highest level (AAA). */
export const accessibilityDetector: Detector = {
  name: 'accessibility',
  rules: accessibilityRules('AAA'),
  async run(input: DetectorInput): Promise<DetectedFinding[]> {
    const tags = tagsFor(wcagLevelFrom(input.options));
    const findings: DetectedFinding[] = [];
    // One page at a time: each window holds a parsed DOM plus a copy of axe, and the work is CPU-bound.
    for (const page of input.crawl.pages.filter(isHtmlPage)) {
      findings.push(...(await auditPage(page, tags)));
    }
    return findings;
  },
};
