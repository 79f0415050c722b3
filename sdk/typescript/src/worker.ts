import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { backoffMs } from './backoff.ts';
import { GatehouseClient } from './client.ts';
import { GatehouseError } from './errors.ts';
import { workerSettings, type WorkerOptions } from './options.ts';
import { releaseClaim, startTask, type RunningTask } from './task-run.ts';
import type { Claim } from './types.ts';

export interface Worker {
  /** Starts the claim loops; resolves once they run. */
  start(): Promise<void>;
  /**
   * Stops gracefully: no more claims; running handlers get `shutdownGraceMs` to finish, then
   * their tasks are released and their signals aborted with `'shutdown'`. Resolves with `stopped`.
   */
  stop(): Promise<void>;
  /** Settles once the worker has stopped (by `stop()` or a signal). */
  readonly stopped: Promise<void>;
}

/** A worker that claims the agent's tasks and runs them with `handlers`, one per task type. */
export function createWorker(options: WorkerOptions): Worker {
  const settings = workerSettings(options);
  const { agent, logger, retry } = settings;
  const client = new GatehouseClient(settings);
  const runSettings = { ...settings, client };
  // Aborting it stops claiming: no new claim, and backoff waits end at once.
  const claiming = new AbortController();
  // Aborting it ends claims in flight, only once the shutdown grace ran out: the server cannot tell
  // that a client left, so a claim cut short could still take a task for nobody (the task would
  // wait for its lease to run out, and count a lost lease). Let it answer, and give back what it brings.
  const inFlight = new AbortController();
  const running = new Set<RunningTask>();
  let state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
  let loops: Promise<void>[] = [];
  let stopping: Promise<void> | undefined;
  let markStopped = () => {};
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));

  async function claimLoop(): Promise<void> {
    let failures = 0;
    while (!claiming.signal.aborted) {
      let claim: Claim | undefined;
      try {
        claim = await client.claim(agent, { wait_seconds: settings.waitSeconds, lease_seconds: settings.leaseSeconds }, { idempotencyKey: randomUUID(), signal: inFlight.signal });
        failures = 0;
      } catch (error) {
        if (claiming.signal.aborted) return;
        const waitMs = backoffMs(failures++, retry);
        // A refusal that retrying cannot cure (a revoked key, an unknown agent) is an operator's problem.
        const level = error instanceof GatehouseError && !error.retryable ? 'error' : 'warn';
        logger[level]('claim failed; trying again', { agent, error: error instanceof Error ? error.message : String(error), wait_ms: Math.round(waitMs) });
        await delay(waitMs, undefined, { signal: claiming.signal }).catch(() => {});
        continue;
      }
      if (!claim) {
        // 204: the wait happened on the server, so claim again at once; without a wait, that would be a busy loop.
        if (settings.waitSeconds === 0) await delay(retry.baseMs, undefined, { signal: claiming.signal }).catch(() => {});
        continue;
      }
      // Answered while stopping began: give it back rather than start work the shutdown would cut.
      if (claiming.signal.aborted) return releaseClaim(claim, runSettings);
      const run = startTask(claim, runSettings);
      running.add(run);
      await run.finished;
      running.delete(run);
    }
  }

  async function shutDown(): Promise<void> {
    state = 'stopping';
    logger.info('worker stopping', { agent, running: running.size });
    claiming.abort();
    // Each loop ends once its claim in flight answered (its task, if any, given back) or its handler finished.
    await settleWithin(Promise.all(loops), settings.shutdownGraceMs);
    inFlight.abort();
    await Promise.all([...running].map((run) => run.release()));
    await Promise.all(loops);
    process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
    state = 'stopped';
    logger.info('worker stopped', { agent });
    markStopped();
  }

  function onSignal(signal: NodeJS.Signals): void {
    if (state === 'stopping' && signal === 'SIGINT') {
      logger.warn('second SIGINT: exiting at once', { agent });
      process.exit(130);
    }
    logger.info('signal received; stopping gracefully', { agent, signal });
    void worker.stop();
  }

  const worker: Worker = {
    stopped,
    async start() {
      if (state !== 'new') throw new Error(`start(): the worker is already ${state}`);
      state = 'running';
      if (settings.handleSignals) process.on('SIGTERM', onSignal).on('SIGINT', onSignal);
      loops = Array.from({ length: settings.concurrency }, () => claimLoop());
      logger.info('worker started', { agent, concurrency: settings.concurrency, task_types: Object.keys(settings.handlers) });
    },
    stop() {
      if (state === 'new') {
        state = 'stopped';
        markStopped();
      }
      stopping ??= state === 'running' ? shutDown() : stopped;
      return stopping;
    },
  };
  return worker;
}

/** Resolves when `promise` settles or after `ms`, whichever comes first, leaving no timer behind. */
function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}
