/** A scan while it runs (`detectors` names them, `progress` says which ended) or after (`detectors` holds results). */
export interface ScanLike {
  status: string;
  detectors: string[] | Record<string, unknown>;
  progress?: Record<string, string>;
}

/** Whether the scan may still change: poll it and offer `Cancel scan`. */
export function isScanActive(status: string): boolean {
  return status === 'pending' || status === 'running';
}

/** How many of the scan's detectors have ended, out of how many. */
export function scanProgress(scan: ScanLike): { done: number; total: number } {
  const names = Array.isArray(scan.detectors) ? scan.detectors : Object.keys(scan.detectors);
  if (!isScanActive(scan.status)) return { done: names.length, total: names.length };
  const done = names.filter((name) => scan.progress?.[name] === 'completed').length;
  return { done, total: names.length };
}

/**
 * The file name a `Content-Disposition: attachment` header gives (RFC 6266: `filename*` in
 * UTF-8 wins over `filename`), or the fallback; never a path.
 */
export function attachmentName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(header);
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = undefined;
    }
  }
  name ??= plain ? (plain[1] ?? plain[2]) : undefined;
  const safe = name?.split(/[\\/]/).pop()?.trim();
  return safe ? safe : fallback;
}
