/**
 * One deadline over a whole outbound exchange (DNS, connect, TLS, request, response), shared by
 * webhook delivery and the scan crawler: a slow or silent peer must never hold a worker longer.
 */

/**
 * Runs `work` with a signal that aborts after `timeoutMs`. The timer is a referenced one (unlike
 * AbortSignal.timeout's), so the process stays alive until the deadline even while a hung DNS
 * lookup holds no handle; it is cleared as soon as `work` settles.
 */
export async function withDeadline<T>(timeoutMs: number, work: (deadline: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Settles as `work` does, or rejects with the signal's reason once `deadline` aborts, whichever
 * comes first. For steps that take no signal of their own (a DNS lookup); `work` is not cancelled.
 */
export function raceDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (deadline.aborted) return reject(deadline.reason);
    const onAbort = () => reject(deadline.reason);
    deadline.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', onAbort));
  });
}
