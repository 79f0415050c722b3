import { ScansApi } from './api-client.ts';
import type { ScanOptions } from './args.ts';
import { DEFAULT_RETRY, type RetryOptions } from './backoff.ts';
import { findBaseline } from './baseline.ts';
import type { CiContext } from './ci-context.ts';
import type { Connection } from './connection.ts';
import { Interrupted, ScanNotCompleted, UsageError } from './errors.ts';
import { EXIT } from './exit-codes.ts';
import { evaluateGate } from './gate.ts';
import { HttpClient } from './http.ts';
import { progressLines, summaryJson, summaryText, type ScanReport } from './output.ts';
import { waitForScan } from './poller.ts';
import { writeSarif } from './sarif-file.ts';
import type { CreateScanBody, DetectorResult, Scan } from './wire.ts';

export interface Timing {
  retry: RetryOptions;
  /** One HTTP try, answer included. */
  attemptTimeoutMs: number;
  /** Reads of the scan while it runs: 1 s apart after a change, slowing to 5 s while nothing moves. */
  pollMinMs: number;
  pollMaxMs: number;
}

export const DEFAULT_TIMING: Timing = { retry: DEFAULT_RETRY, attemptTimeoutMs: 30_000, pollMinMs: 1_000, pollMaxMs: 5_000 };

export interface ScanContext {
  connection: Connection;
  ci: CiContext;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Aborts with an Interrupted on SIGINT or SIGTERM. */
  signal?: AbortSignal;
  timing: Timing;
  userAgent: string;
}

/**
 * `gatehouse scan`: starts the scan, follows it, judges its findings, writes the SARIF log and
 * the summary. Resolves with the exit code of a verdict (0 or 1); anything that prevents one
 * throws. A scan it started and leaves early (timeout, signal, lost API) is cancelled, best effort.
 */
export async function runScan(options: ScanOptions, context: ScanContext): Promise<number> {
  const startedAt = Date.now();
  const log = (lines: string[]) => lines.forEach((line) => context.stderr(`${line}\n`));
  const branch = options.branch ?? context.ci.branch;
  const baselineBranch = options.baselineBranch ?? context.ci.baseline_branch;
  if (options.newOnly && !branch) throw new UsageError('--new-only compares with the last scan of the branch: pass --branch, or run it in GitHub Actions or GitLab CI.');
  const api = new ScansApi(
    new HttpClient({ baseUrl: context.connection.apiUrl, apiKey: context.connection.apiKey, retry: context.timing.retry, attemptTimeoutMs: context.timing.attemptTimeoutMs, userAgent: context.userAgent }),
    context.signal,
  );

  const created = await api.createScan(options.project, scanBody(options, context.ci, { branch, baselineBranch }));
  const branches = [branch && `branch ${branch}`, baselineBranch && `baseline branch ${baselineBranch}`].filter(Boolean);
  log([`Scan ${created.scan_id} of project ${created.project_id} started (${[created.detectors.join(', '), ...branches].join('; ')}); about ${created.estimated_duration_seconds} s`]);
  const scan = await untilEnded(api, created.scan_id, options.timeoutSeconds, context, startedAt, log);
  if (scan.status !== 'completed') throw new ScanNotCompleted(scan.scan_id, scan.status === 'cancelled' ? 'cancelled' : 'failed', whyNotCompleted(scan));

  const findings = await api.findings(scan.scan_id);
  const baseline = options.newOnly ? ((await findBaseline(api, scan.project_id, { branch: branch as string, baselineBranch }, scan.scan_id)) ?? null) : undefined;
  const gate = evaluateGate({ findings, failOn: options.failOn, baselineIds: baseline === undefined ? undefined : (baseline?.findingIds ?? new Set()) });
  const sarifPath = options.sarif === undefined ? undefined : await writeSarif(options.sarif, await api.sarif(scan.scan_id));
  const exitCode = gate.passed ? EXIT.passed : EXIT.gateFailed;
  const report: ScanReport = { scan, branch, baselineBranch, failOn: options.failOn, newOnly: options.newOnly, baseline, gate, sarifPath, dashboardUrl: context.connection.dashboardUrl };
  context.stdout(options.json ? summaryJson(report, exitCode) : summaryText(report));
  return exitCode;
}

/** The scan once it ended; past the timeout, or on a signal or an API lost on the way, it is cancelled first. */
async function untilEnded(api: ScansApi, scanId: string, timeoutSeconds: number, context: ScanContext, startedAt: number, log: (lines: string[]) => void): Promise<Scan> {
  try {
    return await waitForScan(api, scanId, {
      deadline: Date.now() + timeoutSeconds * 1000,
      minIntervalMs: context.timing.pollMinMs,
      maxIntervalMs: context.timing.pollMaxMs,
      signal: context.signal,
      onProgress: (event) => log(progressLines(event, Date.now() - startedAt)),
    });
  } catch (error) {
    const why = error instanceof ScanNotCompleted ? `no end after ${timeoutSeconds} s` : error instanceof Interrupted ? error.signal : 'the scan could not be followed';
    log([`Cancelling scan ${scanId} (${why})`]);
    log([(await api.cancelScan(scanId)) ? `Scan ${scanId} cancelled` : `Could not cancel scan ${scanId}; it may still run`]);
    throw error;
  }
}

/** The body of POST /projects/{id}/scans: the flags, and what the CI says about the run; the branches as resolved from both. */
function scanBody(options: ScanOptions, ci: CiContext, { branch, baselineBranch }: { branch?: string; baselineBranch?: string }): CreateScanBody {
  const { branch: _ciBranch, baseline_branch: _ciBaselineBranch, ...fromCi } = ci;
  void _ciBranch;
  void _ciBaselineBranch;
  const metadata = { ...fromCi, ...options.metadata, ...(branch ? { branch } : {}), ...(baselineBranch ? { baseline_branch: baselineBranch } : {}) };
  return {
    ...(options.detectors ? { detectors: options.detectors } : {}),
    ...(options.environment ? { environment: options.environment } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

function whyNotCompleted(scan: Scan): string {
  if (scan.status === 'cancelled') return `Scan ${scan.scan_id} was cancelled before it ended.`;
  const errors = Array.isArray(scan.detectors) ? [] : (Object.entries(scan.detectors) as [string, DetectorResult][]).map(([name, result]) => `${name}: ${result.error ?? result.status}`);
  return `Scan ${scan.scan_id} failed: every detector failed${errors.length ? ` (${errors.join('; ')})` : ''}.`;
}
