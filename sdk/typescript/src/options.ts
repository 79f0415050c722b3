import { DEFAULT_RETRY, type RetryOptions } from './backoff.ts';
import { jsonLineLogger, silentLogger, type Logger } from './logger.ts';
import type { TaskHandlers } from './task-run.ts';

export interface WorkerOptions {
  /** The custom agent's slug; the API key must be an `agent` key bound to it. */
  agent: string;
  apiKey: string;
  /** The API's base, e.g. `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  /** One handler per task type. */
  handlers: TaskHandlers;
  /** Tasks run at once, each by its own claim loop. Default 1. */
  concurrency?: number;
  /** Lease of each claim and heartbeat, 10 to 900. Default 60. */
  leaseSeconds?: number;
  /** How long a claim waits on the server for a task, 0 to 20. Default 20. */
  waitSeconds?: number;
  /** Default a third of the lease, so two heartbeats may fail before the lease runs out. */
  heartbeatEveryMs?: number;
  /** How long `stop()` lets running handlers finish before releasing their tasks. Default 25 000. */
  shutdownGraceMs?: number;
  /** Stop gracefully on SIGTERM and SIGINT (a second SIGINT exits at once). Default true. */
  handleSignals?: boolean;
  /** Default: one JSON line per entry on stderr; `false` silences. */
  logger?: Logger | false;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Retries of each call on network errors, 408, 429 and 5xx. Default 6 attempts, 250 ms to 15 s. */
  retry?: Partial<RetryOptions>;
}

export type WorkerSettings = Required<Omit<WorkerOptions, 'logger' | 'retry'>> & { logger: Logger; retry: RetryOptions };

/** The options with their defaults, checked now so that a mistake fails at start, not at the first task. */
export function workerSettings(options: WorkerOptions): WorkerSettings {
  const leaseSeconds = options.leaseSeconds ?? 60;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const settings: WorkerSettings = {
    agent: options.agent,
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    handlers: options.handlers,
    concurrency: options.concurrency ?? 1,
    leaseSeconds,
    waitSeconds: options.waitSeconds ?? 20,
    heartbeatEveryMs: options.heartbeatEveryMs ?? (leaseSeconds * 1000) / 3,
    shutdownGraceMs: options.shutdownGraceMs ?? 25_000,
    handleSignals: options.handleSignals ?? true,
    logger: options.logger === false ? silentLogger : (options.logger ?? jsonLineLogger()),
    fetch: options.fetch ?? globalThis.fetch,
    retry,
  };
  const problems = [
    !settings.agent && 'agent is required',
    !settings.apiKey && 'apiKey is required',
    !(URL.canParse(settings.baseUrl) && /^https?:$/.test(new URL(settings.baseUrl).protocol)) && `baseUrl '${settings.baseUrl}' is not an http(s) URL`,
    Object.keys(settings.handlers ?? {}).length === 0 && 'handlers must name at least one task type',
    Object.values(settings.handlers ?? {}).some((handler) => typeof handler !== 'function') && 'every handler must be a function',
    !isInteger(settings.concurrency, 1) && 'concurrency must be an integer of 1 or more',
    !isInteger(leaseSeconds, 10, 900) && 'leaseSeconds must be an integer from 10 to 900',
    !isInteger(settings.waitSeconds, 0, 20) && 'waitSeconds must be an integer from 0 to 20',
    !(settings.heartbeatEveryMs > 0 && settings.heartbeatEveryMs < leaseSeconds * 1000) && 'heartbeatEveryMs must be above 0 and below the lease',
    !(settings.shutdownGraceMs >= 0) && 'shutdownGraceMs must be 0 or more',
    !isInteger(retry.attempts, 1) && 'retry.attempts must be an integer of 1 or more',
    // A zero wait would turn a failing server into a busy loop.
    !(retry.baseMs > 0 && retry.maxMs >= retry.baseMs) && 'retry.baseMs must be above 0 and retry.maxMs at least retry.baseMs',
  ].filter((problem): problem is string => typeof problem === 'string');
  if (problems.length > 0) throw new TypeError(`createWorker: ${problems.join('; ')}`);
  return settings;
}

function isInteger(value: number, min: number, max = Number.MAX_SAFE_INTEGER): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}
