import { ConflictError } from '#shared/domain/errors';
import type { DetectorName, PageProblem, Severity } from '#shared/scans/model';
import type { RiskLevel, SeveritySummary } from '#shared/scans/risk';

export type ScanStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type DetectorRunStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface DetectorRun {
  status: DetectorRunStatus;
  started_at?: string;
  /** The stuck-work sweeper's last re-send of this run's message. */
  redriven_at?: string;
  completed_at?: string;
  risk_score?: number;
  risk_level?: RiskLevel;
  summary?: SeveritySummary;
  error?: string;
  /** The first 20 pages this run's crawl could not use, and why. */
  crawl_problems?: PageProblem[];
}

/** A project's crawl settings, copied into each scan (docs/scans.md, "Which pages are scanned"). */
export interface CrawlLimits {
  max_pages: number;
  timeout_seconds: number;
  max_page_bytes: number;
  /** Obey the site's robots.txt; off for a staging site that disallows everything. */
  respect_robots_txt: boolean;
  /** Path patterns in robots.txt syntax: links followed when one matches (empty: all)... */
  include: string[];
  /** ...and none of these does. */
  exclude: string[];
}

export interface Project {
  project_id: string;
  tenant_id: string;
  name: string;
  target: string;
  default_detectors: DetectorName[];
  crawl: CrawlLimits;
  created_at: string;
  updated_at: string;
}

export interface Scan {
  scan_id: string;
  tenant_id: string;
  project_id: string;
  status: ScanStatus;
  detectors: DetectorName[];
  detector_options: Record<string, Record<string, unknown>>;
  environment?: string;
  target: string;
  crawl: CrawlLimits;
  metadata: Record<string, unknown>;
  runs: Record<string, DetectorRun>;
  created_at: string;
  started_at?: string;
  completed_at?: string;
  duration_seconds?: number;
  estimated_duration_seconds: number;
  risk_score?: number;
  risk_level?: RiskLevel;
  /** Findings per rule of this scan, for the history of the next one. */
  rule_counts?: Record<string, number>;
}

export const DEFAULT_CRAWL: CrawlLimits = { max_pages: 10, timeout_seconds: 10, max_page_bytes: 2 * 1024 * 1024, respect_robots_txt: true, include: [], exclude: [] };

/** Stored settings with the defaults of the fields added since they were stored. */
export function withCrawlDefaults(crawl: Partial<CrawlLimits> | undefined): CrawlLimits {
  return { ...DEFAULT_CRAWL, ...crawl };
}

export function isFinished(status: ScanStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

export function assertCancellable(scan: Pick<Scan, 'status'>): void {
  if (isFinished(scan.status)) throw new ConflictError('scan_not_cancellable', `The scan is ${scan.status} and can no longer be cancelled.`);
}

/**
 * The scan's status once every detector ended: completed if at least one detector completed
 * (the failed ones say so in their result), failed only if all of them failed.
 */
export function finalStatus(runs: Record<string, DetectorRun>): 'completed' | 'failed' | undefined {
  const all = Object.values(runs);
  if (all.some((run) => run.status === 'pending' || run.status === 'running')) return undefined;
  return all.some((run) => run.status === 'completed') ? 'completed' : 'failed';
}

export function renderScan(scan: Scan) {
  const base = { scan_id: scan.scan_id, project_id: scan.project_id, status: scan.status, created_at: scan.created_at };
  const extras = { ...(scan.environment ? { environment: scan.environment } : {}), target: scan.target, metadata: scan.metadata };
  if (scan.status === 'completed' || scan.status === 'failed') {
    return {
      ...base,
      risk_score: scan.risk_score ?? 0,
      risk_level: scan.risk_level ?? 'low',
      detectors: Object.fromEntries(scan.detectors.map((name) => [name, renderRun(scan.runs[name])])),
      completed_at: scan.completed_at,
      duration_seconds: scan.duration_seconds,
      ...extras,
      ...crawlProblemsOf(scan),
    };
  }
  return {
    ...base,
    detectors: scan.detectors,
    progress: Object.fromEntries(scan.detectors.map((name) => [name, scan.runs[name]?.status === 'completed' || scan.runs[name]?.status === 'failed' ? 'completed' : 'running'])),
    estimated_duration_seconds: scan.estimated_duration_seconds,
    ...(scan.completed_at ? { completed_at: scan.completed_at } : {}),
    ...extras,
  };
}

/**
 * The pages the scan could not use, and why. Each detector run crawls for itself, with the same
 * settings, so the first completed run's list speaks for the scan.
 */
function crawlProblemsOf(scan: Scan): { crawl_problems?: PageProblem[] } {
  const run = scan.detectors.map((name) => scan.runs[name]).find((candidate) => candidate?.status === 'completed');
  return run?.crawl_problems?.length ? { crawl_problems: run.crawl_problems } : {};
}

function renderRun(run: DetectorRun | undefined) {
  return {
    status: run?.status ?? 'failed',
    risk_score: run?.risk_score ?? 0,
    risk_level: run?.risk_level ?? 'low',
    summary: run?.summary ?? { total: 0, critical: 0, high: 0, medium: 0, low: 0, info: 0 },
    ...(run?.error ? { error: run.error } : {}),
  };
}

export const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };
