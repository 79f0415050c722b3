import type { GatehouseClient } from './client.ts';
import { isLeaseLost } from './errors.ts';
import type { Logger } from './logger.ts';

export interface LeaseOptions {
  client: GatehouseClient;
  taskId: string;
  leaseId: string;
  leaseSeconds: number;
  heartbeatEveryMs: number;
  /** The run's Idempotency-Key source, shared with the handler's calls. */
  nextKey: () => string;
  logger: Logger;
  /** A heartbeat answered `cancel_requested`. */
  onCancelled: () => void;
  /** The lease is gone: a heartbeat got 409 `lease_lost`, or the lease ran out before one succeeded. */
  onLost: (why: string) => void;
}

export interface Lease {
  /** Keeps only the latest progress; it goes out with the next heartbeat, not as a request of its own. */
  setProgress(message: string, fraction: number): void;
  /**
   * Runs a call that ends the lease when it succeeds (an approval request) with no heartbeat beside
   * it, whose late 409 would look like a lost lease; heartbeats resume if the call fails.
   */
  endWith<T>(call: () => Promise<T>): Promise<T>;
  /** No more heartbeats; one in flight is abandoned. */
  stop(): void;
}

/**
 * Keeps a claimed task's lease alive: a heartbeat every `heartbeatEveryMs`, carrying the latest
 * progress if any. A failed heartbeat is tried again at the next beat; the lease counts as lost
 * when its time runs out first, measured on this machine's clock from the claim, then from the
 * sending of each heartbeat that succeeded (so never later than the server's, skew aside).
 */
export function holdLease(options: LeaseOptions, claimedAt = Date.now()): Lease {
  const { client, taskId, leaseId, leaseSeconds, heartbeatEveryMs, logger } = options;
  let stopped = false;
  let paused = false;
  let pending: { message: string; progress: number } | undefined;
  let inFlight: AbortController | undefined;
  let beatTimer: ReturnType<typeof setTimeout> | undefined;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;

  const expireAt = (deadline: number) => {
    clearTimeout(expiryTimer);
    expiryTimer = setTimeout(() => options.onLost('the lease ran out before a heartbeat succeeded'), deadline - Date.now());
  };
  const schedule = () => {
    if (!stopped && !paused) beatTimer = setTimeout(beat, heartbeatEveryMs);
  };

  async function beat(): Promise<void> {
    const progress = pending;
    pending = undefined;
    const controller = new AbortController();
    inFlight = controller;
    const sentAt = Date.now();
    try {
      const answer = await client.heartbeat(taskId, { lease_id: leaseId, lease_seconds: leaseSeconds, ...progress }, { idempotencyKey: options.nextKey(), signal: controller.signal });
      if (controller.signal.aborted) return;
      expireAt(sentAt + leaseSeconds * 1000);
      if (answer.cancel_requested) return options.onCancelled();
    } catch (error) {
      // Unsent progress waits for the next heartbeat, unless newer progress replaced it meanwhile.
      pending ??= progress;
      if (controller.signal.aborted) return;
      if (isLeaseLost(error)) return options.onLost('a heartbeat was refused: lease_lost');
      logger.warn('heartbeat failed; trying again at the next beat', { task_id: taskId, error: error instanceof Error ? error.message : String(error) });
    } finally {
      if (inFlight === controller) inFlight = undefined;
    }
    schedule();
  }

  const pause = () => {
    paused = true;
    clearTimeout(beatTimer);
    inFlight?.abort();
  };
  const stop = () => {
    stopped = true;
    pause();
    clearTimeout(expiryTimer);
  };

  expireAt(claimedAt + leaseSeconds * 1000);
  schedule();

  return {
    setProgress(message, fraction) {
      pending = { message, progress: fraction };
    },
    async endWith(call) {
      pause();
      try {
        const result = await call();
        stop();
        return result;
      } catch (error) {
        paused = false;
        schedule();
        throw error;
      }
    },
    stop,
  };
}
