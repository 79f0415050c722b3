import type { ScansApi } from './api-client.ts';
import type { ScanSummary } from './wire.ts';

/** How many of the project's earlier completed scans are read, at most, to find the one to compare with. */
export const BASELINE_LOOKBACK = 50;
/** Entries of the list looked at, at most, scans started after this one included. */
const LIST_LIMIT = 500;

/**
 * Why a scan is the one compared with: the last of the baseline branch (a pull request compares
 * with the branch it goes into), or the last of this scan's branch (a build without a baseline
 * branch, or one whose baseline branch has no scan yet).
 */
export type BaselineReason = 'same_branch' | 'baseline_branch';

export interface Baseline {
  scan: ScanSummary;
  /** Its `metadata.branch`. */
  branch: string;
  reason: BaselineReason;
  /** The ids of its findings: the same problem keeps its id from scan to scan. */
  findingIds: Set<string>;
}

export interface BaselineBranches {
  /** This scan's branch: compared with when there is no baseline branch, or when that has no scan. */
  branch: string;
  /** `--baseline-branch`, looked for first: the branch a pull request goes into. */
  baselineBranch?: string;
}

type BaselineApi = Pick<ScansApi, 'completedScans' | 'getScan' | 'findings'>;

/** The baseline branch `--new-only` looks for: none when it is the scan's own branch. */
export function comparedBaselineBranch({ branch, baselineBranch }: Partial<BaselineBranches>): string | undefined {
  return baselineBranch === branch ? undefined : baselineBranch;
}

/**
 * The scan `--new-only` compares with, with its finding ids. With a baseline branch: the last
 * completed scan of `baselineBranch` (its `metadata.branch`) started before `scanId`, else the
 * last of `branch`. The base branch comes first because a pull request's own scans are no
 * reference: a commit that adds a problem fails the gate, but its scan completes, and a re-run
 * compared with that scan would pass with the problem still there. Without a baseline branch (a
 * push): the last completed scan of `branch`. Undefined when there is none, and every finding is
 * new. One pass over the project's last BASELINE_LOOKBACK completed scans before this one; the
 * list has no metadata, so each candidate is read; scan ids sort by creation time.
 */
export async function findBaseline(api: BaselineApi, projectId: string, branches: BaselineBranches, scanId: string): Promise<Baseline | undefined> {
  const { branch } = branches;
  const baselineBranch = comparedBaselineBranch(branches);
  let sameBranch: ScanSummary | undefined;
  let read = 0;
  let listed = 0;
  for await (const candidate of api.completedScans(projectId)) {
    if (++listed > LIST_LIMIT || read >= BASELINE_LOOKBACK) break;
    if (candidate.scan_id >= scanId) continue;
    read += 1;
    const candidateBranch = (await api.getScan(candidate.scan_id)).metadata?.branch;
    if (baselineBranch !== undefined && candidateBranch === baselineBranch) return withFindings(api, candidate, baselineBranch, 'baseline_branch');
    if (candidateBranch !== branch) continue;
    if (baselineBranch === undefined) return withFindings(api, candidate, branch, 'same_branch');
    // Newest first, so the first scan of the branch seen is its last one; kept in case the baseline branch has none.
    sameBranch ??= candidate;
  }
  return sameBranch ? withFindings(api, sameBranch, branch, 'same_branch') : undefined;
}

async function withFindings(api: BaselineApi, scan: ScanSummary, branch: string, reason: BaselineReason): Promise<Baseline> {
  const findings = await api.findings(scan.scan_id);
  return { scan, branch, reason, findingIds: new Set(findings.map((finding) => finding.id)) };
}
