import { latestTime, secondsSince, type SweepPolicy } from '#shared/domain/stuck-work';
import type { DetectorRun, ScanStatus } from '#shared/scans/scan';

/**
 * The stuck-work sweeper's rule for scans, beside the scan model it reads: the domain's sweep
 * policy knows nothing of scans, so the dependency runs one way (scans on domain).
 */

/** A detector run as the sweeper sees it; `redriven_at` is the sweeper's last re-send. */
export type SweptDetectorRun = Partial<Pick<DetectorRun, 'status' | 'started_at'>> & { redriven_at?: string };

/**
 * Whether to send a scan's detector message again: a run left `running` longer than the detector
 * worker may live (its worker died), or a run still `pending` long after the scan was created or
 * last re-driven (its message was lost). Runs that ended, and scans that ended, are left alone.
 */
export function detectorRunNeedsRedrive(scan: { status: ScanStatus; created_at: string }, run: SweptDetectorRun | undefined, now: Date, policy: SweepPolicy): boolean {
  if (scan.status !== 'pending' && scan.status !== 'running') return false;
  const status = run?.status ?? 'pending';
  if (status === 'running') return secondsSince(latestTime(run?.started_at, run?.redriven_at), now) > policy.stalledDetectorRunSeconds;
  if (status === 'pending') return secondsSince(latestTime(scan.created_at, run?.redriven_at), now) > policy.redispatchAfterSeconds;
  return false;
}
