import { setTimeout as delay } from 'node:timers/promises';
import { backoffMs, retryAfterMs, type RetryOptions } from './backoff.ts';
import { ApiError } from './errors.ts';
import type { Problem } from './wire.ts';

export interface HttpOptions {
  /** The API's base, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  apiKey: string;
  retry: RetryOptions;
  /** A try that takes longer (a dead connection) counts as a network error and is retried. */
  attemptTimeoutMs: number;
  userAgent: string;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** The same on every retry of the call, so that a POST whose answer was lost creates nothing twice. */
  idempotencyKey?: string;
  /** Aborting it ends the call at once, no retry; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Fewer tries, or shorter ones, than the client's (a best-effort cancel on the way out). */
  attempts?: number;
  timeoutMs?: number;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: ApiError; waitMs?: number };

/**
 * HTTP to the Gatehouse API with the key as a bearer token. Every call is retried with
 * full-jitter backoff while its error is retryable (no answer, 408, 429, 5xx; `Retry-After`
 * honoured up to `retry.maxMs`); any other error answer throws an ApiError from its problem+json.
 */
export class HttpClient {
  readonly #options: HttpOptions;
  readonly #baseUrl: string;

  constructor(options: HttpOptions) {
    this.#options = options;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** A JSON call; its parsed answer. */
  json<T>(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<T> {
    return this.#withRetries(method, path, options, async (response) => (await response.json()) as T);
  }

  /**
   * A file download (an export). A large file is answered with 303 to a short-lived link of the
   * export bucket, fetched without the key: it is signed already, and the key must not leave for another host.
   */
  bytes(path: string, options: RequestOptions = {}): Promise<Uint8Array> {
    return this.#withRetries('GET', path, options, async (response, signal) => {
      const location = response.headers.get('location');
      if (response.status < 300 || location === null) return new Uint8Array(await response.arrayBuffer());
      const linked = await fetch(new URL(location, response.url), { signal });
      if (!linked.ok) throw await problemOf(linked);
      return new Uint8Array(await linked.arrayBuffer());
    });
  }

  async #withRetries<T>(method: string, path: string, options: RequestOptions, read: (response: Response, signal: AbortSignal) => Promise<T>): Promise<T> {
    const retry = this.#options.retry;
    const attempts = options.attempts ?? retry.attempts;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#try(method, path, options, read);
      if (outcome.ok) return outcome.value;
      if (!outcome.error.retryable || attempt >= attempts) throw outcome.error;
      try {
        await delay(Math.min(outcome.waitMs ?? backoffMs(attempt - 1, retry), retry.maxMs), undefined, { signal: options.signal });
      } catch (error) {
        throw options.signal?.aborted ? options.signal.reason : error;
      }
    }
  }

  async #try<T>(method: string, path: string, options: RequestOptions, read: (response: Response, signal: AbortSignal) => Promise<T>): Promise<Attempt<T>> {
    const timeoutMs = options.timeoutMs ?? this.#options.attemptTimeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const url = `${this.#baseUrl}${path}${queryString(options.query)}`;
    try {
      const response = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${this.#options.apiKey}`,
          Accept: 'application/json, application/problem+json, */*',
          'User-Agent': this.#options.userAgent,
          ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(options.idempotencyKey === undefined ? {} : { 'Idempotency-Key': options.idempotencyKey }),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        // Followed by `bytes` itself, without the key.
        redirect: 'manual',
        signal,
      });
      if (response.status >= 400) return { ok: false, error: await problemOf(response), waitMs: retryAfterMs(response.headers.get('retry-after')) };
      return { ok: true, value: await read(response, signal) };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof ApiError) return { ok: false, error };
      const detail = timeout.aborted ? `no answer within ${timeoutMs / 1000} s` : causeOf(error);
      return { ok: false, error: new ApiError({ status: 0, code: 'network_error', title: 'No answer', detail: `${method} ${url}: ${detail}` }, { cause: error }) };
    }
  }
}

function queryString(query: RequestOptions['query']): string {
  const entries = Object.entries(query ?? {}).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([key, value]): [string, string] => [key, String(value)]))}`;
}

/** fetch reports "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND) is in its cause. */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  return cause ? `${error.message} (${(cause as NodeJS.ErrnoException).code ?? cause.message})` : error.message;
}

/** The problem+json of an error answer; an answer that is not one (a proxy's HTML page) still yields a code and a detail. */
async function problemOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let problem: Problem = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') problem = parsed as Problem;
  } catch {
    // Not JSON: described by its status below.
  }
  return new ApiError({
    status: response.status,
    code: typeof problem.code === 'string' ? problem.code : `http_${response.status}`,
    title: problem.title ?? (response.statusText || `HTTP ${response.status}`),
    detail: problem.detail ?? (text.slice(0, 200) || response.statusText),
    errors: problem.errors,
  });
}
