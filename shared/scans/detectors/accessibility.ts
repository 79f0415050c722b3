/**
 * The accessibility detector: runs axe-core against each crawled HTML page inside jsdom and turns
 * every violating element into a finding. The page's own scripts never run; see
 * docs/accessibility-detector.md for what that, and the lack of a layout engine, leaves out.
 */
import axe from 'axe-core';
import { JSDOM, VirtualConsole } from 'jsdom';
import { InvalidRequestError } from '#shared/domain/errors';
import type { DetectedFinding, Detector, DetectorInput, FetchedPage, FindingLocation, RuleDescription, Severity } from '#shared/scans/model';
import { criterionUrls, type WcagLevel } from '#shared/scans/detectors/wcag-criteria';

export const WCAG_LEVELS = ['A', 'AA', 'AAA'] as const satisfies readonly WcagLevel[];
export const DEFAULT_WCAG_LEVEL: WcagLevel = 'AA';

const RULE_PREFIX = 'accessibility.';
const SNIPPET_LIMIT = 500;

// Each WCAG version tags its new criteria separately (wcag2a, wcag21a, wcag22a), and a level
// includes the levels below it, so the tag set for a level is cumulative over both axes.
const LEVEL_TAGS: Record<WcagLevel, readonly string[]> = {
  A: ['wcag2a', 'wcag21a', 'wcag22a'],
  AA: ['wcag2aa', 'wcag21aa', 'wcag22aa'],
  AAA: ['wcag2aaa', 'wcag21aaa', 'wcag22aaa'],
};

// axe skips rules carrying these tags unless the run names them; our runs never do, so neither
// does the rule list (axe-core's default `tagExclude`).
const EXCLUDED_TAGS = ['experimental', 'deprecated'];

// Our severity scale is shared with the security detector, where `critical` means an exploitable
// compromise; an axe `critical` (a user is blocked) therefore maps one step down, and so on.
const SEVERITY_BY_IMPACT: Record<NonNullable<axe.ImpactValue>, Severity> = {
  critical: 'high',
  serious: 'medium',
  moderate: 'low',
  minor: 'info',
};
const FALLBACK_SEVERITY: Severity = 'medium';

/** The axe tags that select the WCAG 2.0–2.2 rules up to and including `level`. */
export function tagsFor(level: WcagLevel): string[] {
  const upTo = WCAG_LEVELS.slice(0, WCAG_LEVELS.indexOf(level) + 1);
  return upTo.flatMap((l) => LEVEL_TAGS[l]);
}

/** Reads `wcag_level` from the detector options; absent means AA, anything else is refused. */
export function wcagLevelFrom(options: Record<string, unknown>): WcagLevel {
  const value = options.wcag_level;
  if (value === undefined) return DEFAULT_WCAG_LEVEL;
  if (typeof value === 'string' && (WCAG_LEVELS as readonly string[]).includes(value)) return value as WcagLevel;
  throw new InvalidRequestError('wcag_level must be one of A, AA, AAA', [{ path: 'options.wcag_level', message: 'expected A, AA or AAA' }]);
}

/** Maps an axe impact to our severity; absent impact (never seen for violations) becomes medium. */
export function severityForImpact(impact: axe.ImpactValue | null | undefined): Severity {
  return impact ? SEVERITY_BY_IMPACT[impact] : FALLBACK_SEVERITY;
}

// axe's public getRules() omits a rule's declared impact; the loaded audit has it.
function declaredImpact(ruleId: string): axe.ImpactValue | undefined {
  const audit = (axe as unknown as { _audit?: { rules?: { id: string; impact?: axe.ImpactValue }[] } })._audit;
  return audit?.rules?.find((r) => r.id === ruleId)?.impact;
}

/** The rules a scan at `level` can report, in axe's order. */
export function accessibilityRules(level: WcagLevel): RuleDescription[] {
  return axe
    .getRules(tagsFor(level))
    .filter((rule) => !rule.tags.some((tag) => EXCLUDED_TAGS.includes(tag)))
    .map((rule) => ({
      rule_id: `${RULE_PREFIX}${rule.ruleId}`,
      detector: 'accessibility',
      name: rule.ruleId,
      short_description: rule.help,
      full_description: rule.description,
      help: `${sentence(rule.help)} ${sentence(rule.description)} See ${rule.helpUrl}`,
      help_url: rule.helpUrl,
      default_severity: severityForImpact(declaredImpact(rule.ruleId)),
    }));
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

/** Ends a text with a full stop unless it already ends a sentence. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
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
