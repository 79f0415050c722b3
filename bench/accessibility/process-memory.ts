import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Resident memory of processes, read from Linux's /proc: the browser's processes, sampled, and
 * this process's own peak, which the kernel keeps (VmHWM) and which a write to clear_refs resets,
 * so a synchronous stretch (axe in jsdom) cannot slip between two samples.
 */

/** A `Vm*:` field of /proc/<pid>/status in bytes (the file states kB); undefined when absent. */
export function statusBytes(status: string, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // The process ended between listing and reading.
    return undefined;
  }
}

/** Children of `pid`, from each of its threads' `children` file (a child belongs to the thread that forked it). */
function childrenOf(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return threads.flatMap((tid) => (read(`/proc/${pid}/task/${tid}/children`) ?? '').split(' ').filter(Boolean).map(Number));
}

/** Every process under `root`, itself excluded. */
export function descendants(root: number): number[] {
  const found: number[] = [];
  for (let queue = childrenOf(root); queue.length > 0; ) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...childrenOf(pid));
  }
  return found;
}

/** Summed VmRSS of this process's descendants whose command line starts with `executable`, and how many. */
export function descendantRss(executable: string): { bytes: number; processes: number } {
  let bytes = 0;
  let processes = 0;
  for (const pid of descendants(process.pid)) {
    if (!(read(`/proc/${pid}/cmdline`) ?? '').startsWith(executable)) continue;
    const rss = statusBytes(read(`/proc/${pid}/status`) ?? '', 'VmRSS');
    if (rss === undefined) continue;
    bytes += rss;
    processes += 1;
  }
  return { bytes, processes };
}

export interface RssPeak {
  /** Highest summed RSS seen. */
  peakBytes: number;
  /** Processes summed at that sample. */
  processes: number;
  samples: number;
}

/** Samples `descendantRss(executable)` every `intervalMs` until `stop()`, which returns the peak. */
export function sampleDescendantRss(executable: string, intervalMs: number): { stop(): RssPeak } {
  const peak: RssPeak = { peakBytes: 0, processes: 0, samples: 0 };
  const sample = () => {
    const now = descendantRss(executable);
    peak.samples += 1;
    if (now.bytes > peak.peakBytes) Object.assign(peak, { peakBytes: now.bytes, processes: now.processes });
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...peak };
    },
  };
}

/** This process's RSS now. */
export function ownRssBytes(): number {
  return statusBytes(readFileSync('/proc/self/status', 'utf8'), 'VmRSS')!;
}

/** Starts a new window for `ownPeakRssBytes`: the kernel's high-water mark drops to the RSS now. */
export function resetOwnPeakRss(): void {
  writeFileSync('/proc/self/clear_refs', '5');
}

/** This process's peak RSS since the last `resetOwnPeakRss` (or its start). */
export function ownPeakRssBytes(): number {
  return statusBytes(readFileSync('/proc/self/status', 'utf8'), 'VmHWM')!;
}
