import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { httpCrawlOptions } from '#shared/adapters/http/fetch-page';
import { systemClock } from '#shared/domain/clock';
import { crawl, makeOriginFetcher } from '#shared/scans/crawler/crawl';
import { detectorNamed } from '#shared/scans/detectors/registry';
import { findingIdOf } from '#shared/scans/fingerprint';
import { groupByFingerprint } from '#shared/scans/finding-groups';
import type { Finding, Occurrence } from '#shared/scans/finding';
import type { DetectorName } from '#shared/scans/model';
import { assessRisk } from '#shared/scans/risk';
import { scanEvent, scanSummary } from '#shared/scans/scan-events';
import { finalStatus, isFinished, withCrawlDefaults, type Scan } from '#shared/scans/scan';
import { allowLoopbackTargets } from '#shared/services/scans';
import { browserPageRenderer, type BrowserRenderLimits } from '#shared/adapters/browser/page-renderer';
import { scanDetectorWorker } from '#shared/config/topology';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';

/** A run's detector stops auditing this long after it started, leaving the function time to record what it found. */
export const RUN_BUDGET_MS = (scanDetectorWorker.timeoutSeconds - 45) * 1000;

/** A page may take a few request timeouts to render (document, scripts, their data), within bounds. */
export function renderLimitsFor(requestTimeoutSeconds: number): BrowserRenderLimits {
  return { pageTimeoutMs: Math.min(60_000, Math.max(15_000, 3 * requestTimeoutSeconds * 1000)), networkIdleMs: 5_000, maxRequestsPerPage: 200, maxBytesPerPage: 20 * 1024 * 1024 };
}

/**
 * Runs one detector of a scan, idempotently: a redelivered message for a run that already ended
 * only finishes the scan if that is still owed. A detector that throws fails alone.
 */
export async function runDetector(tenantId: string, scanId: string, detectorName: DetectorName): Promise<void> {
  const scan = await scanRepository.getScan(tenantId, scanId);
  if (!scan || isFinished(scan.status) || !scan.detectors.includes(detectorName)) return;
  const now = systemClock.now();
  if (!(await scanRepository.startRun(scan, detectorName, now.toISOString(), scanEvent('scan.started', scan, { detectors: scan.detectors }, systemClock)))) {
    const current = await scanRepository.getScan(tenantId, scanId);
    if (current?.status === 'running' && finalStatus(current.runs)) await finishScan(current);
    return;
  }
  let run;
  // The pages this run crawled, counted in the tenant's usage when the run's end is recorded.
  let pages = 0;
  try {
    const settings = withCrawlDefaults(scan.crawl);
    const options = httpCrawlOptions({
      maxPages: settings.max_pages,
      maxBytes: settings.max_page_bytes,
      timeoutMs: settings.timeout_seconds * 1000,
      allowLoopback: allowLoopbackTargets(),
      respectRobotsTxt: settings.respect_robots_txt,
      include: settings.include,
      exclude: settings.exclude,
    });
    const crawled = await crawl(scan.target, options);
    pages = crawled.pages.length;
    if (crawled.pages.length === 0) throw new Error(`The target could not be scanned: ${crawled.problems.map((problem) => `${problem.url}: ${problem.reason}`).join('; ') || 'no HTML page'}`);
    const detector = detectorNamed(detectorName);
    const renderer = detector.usesBrowser ? browserPageRenderer({ ...renderLimitsFor(settings.timeout_seconds), maxBytes: settings.max_page_bytes, timeoutMs: settings.timeout_seconds * 1000, allowLoopback: allowLoopbackTargets() }) : undefined;
    let detected;
    try {
      detected = await detector.run({
        target: scan.target,
        crawl: crawled,
        fetchPath: makeOriginFetcher(scan.target, options.fetchPage),
        options: scan.detector_options[detectorName] ?? {},
        renderer,
        deadline: now.getTime() + RUN_BUDGET_MS,
        reportProblem: (problem) => crawled.problems.push(problem),
      });
    } finally {
      await renderer?.close();
    }
    const byFinding = groupByFingerprint(detected);
    const occurrences: Occurrence[] = [...byFinding].map(([fingerprint, finding]) => ({ ...finding, finding_id: findingIdOf(scan.project_id, fingerprint), fingerprint, scan_id: scan.scan_id }));
    await scanRepository.putOccurrences(tenantId, occurrences);
    const risk = assessRisk(occurrences);
    run = { status: 'completed' as const, started_at: now.toISOString(), completed_at: systemClock.now().toISOString(), ...risk, ...(crawled.problems.length ? { crawl_problems: crawled.problems.slice(0, 20) } : {}) };
  } catch (error) {
    if ((error as { name?: string }).name === 'ThrottlingException' || (error as { $retryable?: unknown }).$retryable) throw error;
    run = { status: 'failed' as const, started_at: now.toISOString(), completed_at: systemClock.now().toISOString(), error: error instanceof Error ? error.message : String(error) };
  }
  const updated = await scanRepository.finishRun(scan, detectorName, run, pages);
  if (updated && finalStatus(updated.runs)) await finishScan(updated);
}

/**
 * Ends a scan whose detectors all ended: findings get their lifecycle (new → open, fixed and seen
 * again → open and a regression, dismissed stays dismissed, open and not seen by a detector that
 * completed → fixed), each rule gets its history entry, and the scan its risk. Safe to repeat.
 */
async function finishScan(scan: Scan): Promise<void> {
  const status = finalStatus(scan.runs)!;
  const completedDetectors = new Set(scan.detectors.filter((name) => scan.runs[name]?.status === 'completed'));
  const occurrences = (await scanRepository.allOccurrences(scan.tenant_id, scan.scan_id)).filter((occurrence) => completedDetectors.has(occurrence.detector));
  const existing = new Map((await scanRepository.projectFindings(scan.tenant_id, scan.project_id)).map((finding) => [finding.finding_id, finding]));
  const seen = new Set<string>();
  const now = systemClock.now().toISOString();
  for (const occurrence of occurrences) {
    seen.add(occurrence.finding_id);
    const before = existing.get(occurrence.finding_id);
    if (before?.last_scan_id === scan.scan_id) continue;
    const { scan_id: _scanId, ...details } = occurrence;
    void _scanId;
    const finding: Finding = {
      ...details,
      tenant_id: scan.tenant_id,
      project_id: scan.project_id,
      status: before?.status === 'dismissed' ? 'dismissed' : 'open',
      first_seen_at: before?.first_seen_at ?? scan.created_at,
      last_seen_at: scan.created_at,
      last_scan_id: scan.scan_id,
      ...(before?.status === 'fixed' || before?.regression ? { regression: true } : {}),
      ...(before?.dismissed_reason ? { dismissed_reason: before.dismissed_reason } : {}),
      ...(before?.comment !== undefined ? { comment: before.comment } : {}),
    };
    await scanRepository.putFinding(finding);
  }
  for (const finding of existing.values()) {
    if (finding.status === 'open' && !seen.has(finding.finding_id) && completedDetectors.has(finding.detector) && finding.last_scan_id !== scan.scan_id) {
      await scanRepository.updateFinding(scan.tenant_id, finding.finding_id, { status: 'fixed', fixed_at: now });
    }
  }
  const ruleCounts: Record<string, number> = {};
  for (const occurrence of occurrences) ruleCounts[occurrence.rule_id] = (ruleCounts[occurrence.rule_id] ?? 0) + 1;
  const previous = (await scanRepository.listScans(scan.tenant_id, scan.project_id, { limit: 10, status: 'completed' })).scans.find((candidate) => candidate.scan_id < scan.scan_id);
  const rules = new Set([...Object.keys(ruleCounts), ...Object.keys(previous?.rule_counts ?? {}).filter((rule) => completedDetectors.has(rule.split('.')[0] as DetectorName))]);
  for (const rule of rules) {
    const count = ruleCounts[rule] ?? 0;
    await scanRepository.putHistory(scan.tenant_id, scan.project_id, rule, { scan_id: scan.scan_id, scanned_at: scan.created_at, status: count > 0 ? 'open' : 'fixed', count });
  }
  const risk = assessRisk(occurrences);
  const completedAt = systemClock.now();
  const fields = {
    status,
    completed_at: completedAt.toISOString(),
    duration_seconds: Math.max(0, Math.round((completedAt.getTime() - Date.parse(scan.created_at)) / 1000)),
    risk_score: risk.risk_score,
    risk_level: risk.risk_level,
    rule_counts: ruleCounts,
  };
  const failedRuns = scan.detectors.filter((name) => scan.runs[name]?.status === 'failed');
  const event = scanEvent(
    status === 'completed' ? 'scan.completed' : 'scan.failed',
    scan,
    { status, risk_score: risk.risk_score, risk_level: risk.risk_level, summary: scanSummary(scan), duration_seconds: fields.duration_seconds, ...(failedRuns.length ? { failed_detectors: failedRuns } : {}), metadata: scan.metadata },
    systemClock,
  );
  const finished = await scanRepository.completeScan(scan, fields, event);
  if (!finished) return;
  // Counted by the one caller whose conditional write ended the scan.
  recordMetric(status === 'completed' ? 'scansCompleted' : 'scansFailed', 1);
  recordMetric('scanDuration', Math.max(0, completedAt.getTime() - Date.parse(scan.created_at)));
  logger.info('scan finished', { scan_id: scan.scan_id, status });
}
