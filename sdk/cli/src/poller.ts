import { setTimeout as delay } from 'node:timers/promises';
import { ScanNotCompleted } from './errors.ts';
import type { Detector, Scan, ScanStatus } from './wire.ts';

export type ProgressEvent =
  | { type: 'status'; status: ScanStatus; detectors: Detector[] }
  | { type: 'detector_done'; detector: Detector }
  | { type: 'ended'; scan: Scan };

export interface PollOptions {
  /** `Date.now()` past which the wait gives up (ScanNotCompleted `timed_out`). */
  deadline: number;
  /** The first wait between two reads, and the wait again after each change. */
  minIntervalMs: number;
  /** Each read that shows no change waits half as long again as the last, up to this. */
  maxIntervalMs: number;
  signal?: AbortSignal;
  onProgress(event: ProgressEvent): void;
}

export const ENDED: ReadonlySet<ScanStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * Reads the scan until it ended and returns it as it ended, reporting each change on the way: a
 * new status, a detector done. Quick while things move, slower while they do not.
 */
export async function waitForScan(api: { getScan(scanId: string): Promise<Scan> }, scanId: string, options: PollOptions): Promise<Scan> {
  let status: ScanStatus | undefined;
  const done = new Set<Detector>();
  let interval = options.minIntervalMs;
  for (;;) {
    const scan = await api.getScan(scanId);
    let changed = false;
    if (scan.status !== status) {
      status = scan.status;
      changed = true;
      if (!ENDED.has(scan.status)) options.onProgress({ type: 'status', status: scan.status, detectors: detectorsOf(scan) });
    }
    for (const [detector, state] of Object.entries(scan.progress ?? {}) as [Detector, string][]) {
      if (state !== 'completed' || done.has(detector)) continue;
      done.add(detector);
      changed = true;
      options.onProgress({ type: 'detector_done', detector });
    }
    if (ENDED.has(scan.status)) {
      options.onProgress({ type: 'ended', scan });
      return scan;
    }
    const left = options.deadline - Date.now();
    if (left <= 0) throw new ScanNotCompleted(scanId, 'timed_out', `The scan did not end in time (it is ${scan.status}).`);
    interval = nextInterval(interval, changed, options);
    try {
      await delay(Math.min(interval, left), undefined, { signal: options.signal });
    } catch (error) {
      throw options.signal?.aborted ? options.signal.reason : error;
    }
  }
}

/** The wait before the next read: the shortest after a change, else half as long again as the last, up to the bound. */
export function nextInterval(last: number, changed: boolean, { minIntervalMs, maxIntervalMs }: Pick<PollOptions, 'minIntervalMs' | 'maxIntervalMs'>): number {
  return changed ? minIntervalMs : Math.min(maxIntervalMs, last * 1.5);
}

/** The detector names, whether the scan lists them (running) or maps them to results (ended). */
export function detectorsOf(scan: Scan): Detector[] {
  return (Array.isArray(scan.detectors) ? scan.detectors : Object.keys(scan.detectors)) as Detector[];
}
