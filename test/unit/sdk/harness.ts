import { afterEach, beforeEach } from 'vitest';
import { createWorker, type Logger, type TaskHandlers, type Worker, type WorkerOptions } from '../../../sdk/typescript/src/index.ts';
import { API_KEY, FakeGatehouse } from './fake-gatehouse.ts';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  [field: string]: unknown;
}

/** Options that keep every wait short: quick heartbeats, short claim holds, small backoffs. */
export const QUICK: Partial<WorkerOptions> = {
  handleSignals: false,
  leaseSeconds: 10,
  waitSeconds: 1,
  heartbeatEveryMs: 60,
  shutdownGraceMs: 300,
  retry: { attempts: 3, baseMs: 10, maxMs: 100 },
};

/**
 * A fresh fake Gatehouse per test, and workers against it that are stopped (and awaited) after
 * the test, before the fake closes.
 */
export function useFakeGatehouse() {
  let fake: FakeGatehouse;
  let workers: Worker[] = [];
  beforeEach(async () => {
    fake = await FakeGatehouse.start();
    workers = [];
  });
  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await fake.close();
  });
  return {
    get fake() {
      return fake;
    },
    /** A worker of the fake's agent, started, with its log lines collected. */
    async startWorker(handlers: TaskHandlers, options: Partial<WorkerOptions> = {}): Promise<{ worker: Worker; logs: LogLine[] }> {
      const logs: LogLine[] = [];
      const line = (level: LogLine['level']) => (message: string, fields?: Record<string, unknown>) => logs.push({ level, message, ...fields });
      const logger: Logger = { info: line('info'), warn: line('warn'), error: line('error') };
      const worker = createWorker({ agent: 'invoice-checker', apiKey: API_KEY, baseUrl: fake.baseUrl, handlers, logger, ...QUICK, ...options });
      workers.push(worker);
      await worker.start();
      return { worker, logs };
    },
  };
}

/** A promise and the function that resolves it, for handlers a test lets go of at a moment it picks. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
