/**
 * The scan model shared by the crawler, the detectors, the scan service and the exports.
 * Pure types: no I/O, no AWS.
 */
import type { PageRenderer } from '#shared/scans/page-renderer';

export const DETECTORS = ['accessibility', 'security', 'ai_readiness'] as const;
export type DetectorName = (typeof DETECTORS)[number];

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Where a finding is: the page URL, and where possible the element and its place in the fetched HTML. */
export interface FindingLocation {
  type: 'url';
  url: string;
  /** CSS selector of the element, when the finding is about one. */
  selector?: string;
  /** 1-based line and column of the element's start tag in the fetched HTML. */
  line?: number;
  column?: number;
  end_line?: number;
  end_column?: number;
  /** A short excerpt of the offending markup or header. */
  snippet?: string;
}

/** A finding as a detector reports it, before the service gives it an id and a history. */
export interface DetectedFinding {
  detector: DetectorName;
  /** Stable across scans and releases, e.g. `security.missing-hsts`, `accessibility.image-alt`. */
  rule_id: string;
  severity: Severity;
  title: string;
  description: string;
  location: FindingLocation;
  remediation: string;
  /** URLs: WCAG success criteria, OWASP, RFCs, EU AI Act articles. */
  references: string[];
  /** CVSS 3.1 base score (0 for findings without security impact). */
  cvss_score: number;
  /** CVSS 3.1 vector, for security findings. */
  cvss_vector?: string;
  /** How many pages show this very element problem (a template's), when more than one. */
  page_count?: number;
  /** The other pages' places, first ones in crawl order (at most MAX_OTHER_LOCATIONS). */
  other_locations?: FindingLocation[];
}

/** What exports and docs need to describe a rule (SARIF `rules[]`). */
export interface RuleDescription {
  rule_id: string;
  detector: DetectorName;
  name: string;
  short_description: string;
  full_description: string;
  help: string;
  help_url?: string;
  default_severity: Severity;
}

/** One fetched resource of the target. */
export interface FetchedPage {
  url: string;
  /** After redirects (same-origin only). */
  final_url: string;
  status: number;
  /** Lower-case header names; repeated headers joined with ', ' except set-cookie. */
  headers: Record<string, string>;
  set_cookies: string[];
  content_type: string;
  /** The body as text (HTML pages); truncated to the crawler's byte limit. */
  body: string;
  truncated: boolean;
  /** TLS facts when fetched over https. */
  tls?: { protocol?: string; cipher?: string; valid_to?: string; issuer?: string; authorized: boolean; authorization_error?: string };
}

/** Why a URL gave no page: refused (the SSRF guard), out of time, or the network failed. */
export type FetchFailureReason = 'blocked_url' | 'timeout' | 'unreachable';

export type FetchOutcome = { ok: true; page: FetchedPage } | { ok: false; url: string; reason: FetchFailureReason; message: string };

/**
 * The crawl's one way to the network (the HTTP adapter implements it): one GET of `url`, which
 * never throws for what the site or the network does. Redirects come back as pages, not followed:
 * whether to follow one is the crawl's decision.
 */
export type PageFetcher = (url: string) => Promise<FetchOutcome>;

export interface CrawlOptions {
  maxPages: number;
  fetchPage: PageFetcher;
  /** Obey the origin's robots.txt (default true). */
  respectRobotsTxt?: boolean;
  /** Path patterns in robots.txt syntax: links are followed when one of these matches (none: all)... */
  include?: readonly string[];
  /** ...and none of these does. The target itself is always crawled. */
  exclude?: readonly string[];
}

export interface CrawlResult {
  /** The HTML pages reached from the target (same origin), target first, each page once. */
  pages: FetchedPage[];
  /** Why pages could not be fetched (timeouts, off-origin redirects, non-HTML, too large, robots_disallowed). */
  problems: { url: string; reason: string }[];
  /** Distinct URLs not crawled because they are a page already crawled (another spelling, a redirect to it, its rel=canonical); absent when none. */
  duplicates?: number;
  /** Distinct links not followed because of the include/exclude patterns; absent when none. */
  excluded?: number;
}

/** Fetches one path of the target's origin (robots.txt, /.env, ...); undefined when unreachable. */
export type OriginFetcher = (path: string) => Promise<FetchedPage | undefined>;

export interface DetectorInput {
  target: string;
  crawl: CrawlResult;
  fetchPath: OriginFetcher;
  /** Detector options from the scan request, e.g. `{ wcag_level: 'AA' }` for accessibility. */
  options: Record<string, unknown>;
  /** A browser to render pages in, for detectors that say `usesBrowser`. */
  renderer?: PageRenderer;
  /** When the run must stop auditing (epoch ms); pages left are reported, not audited. */
  deadline?: number;
  /** A page the detector could not audit, and why; kept with the run's crawl problems. */
  reportProblem?: (problem: PageProblem) => void;
}

/** A URL the crawl or a detector could not use, and why (`detail` says it in words). */
export interface PageProblem {
  url: string;
  reason: string;
  detail?: string;
}

export interface Detector {
  name: DetectorName;
  rules: RuleDescription[];
  /** Renders pages in a browser: the runner passes one in (`DetectorInput.renderer`). */
  usesBrowser?: boolean;
  run(input: DetectorInput): Promise<DetectedFinding[]>;
}
