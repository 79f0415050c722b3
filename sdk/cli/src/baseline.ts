import type { ScansApi } from './api-client.ts';
import type { ScanSummary } from './wire.ts';

/** How many of the project's earlier completed scans are read, at most, to find the branch's last one. */
export const BASELINE_LOOKBACK = 50;
/** Entries of the list looked at, at most, scans started after this one included. */
const LIST_LIMIT = 500;

export interface Baseline {
  scan: ScanSummary;
  /** The ids of its findings: the same problem keeps its id from scan to scan. */
  findingIds: Set<string>;
}

/**
 * The last completed scan of `branch` (its `metadata.branch`) started before `scanId`, with its
 * finding ids; undefined when the project has none among its last BASELINE_LOOKBACK completed
 * scans. The list has no metadata, so each candidate is read; scan ids sort by creation time.
 */
export async function findBaseline(api: Pick<ScansApi, 'completedScans' | 'getScan' | 'findings'>, projectId: string, branch: string, scanId: string): Promise<Baseline | undefined> {
  let read = 0;
  let listed = 0;
  for await (const candidate of api.completedScans(projectId)) {
    if (++listed > LIST_LIMIT || read >= BASELINE_LOOKBACK) return undefined;
    if (candidate.scan_id >= scanId) continue;
    read += 1;
    const scan = await api.getScan(candidate.scan_id);
    if (scan.metadata?.branch !== branch) continue;
    const findings = await api.findings(candidate.scan_id);
    return { scan: candidate, findingIds: new Set(findings.map((finding) => finding.id)) };
  }
  return undefined;
}
