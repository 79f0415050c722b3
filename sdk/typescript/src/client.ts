import { setTimeout as delay } from 'node:timers/promises';
import { backoffMs, retryAfterMs, type RetryOptions } from './backoff.ts';
import { GatehouseError } from './errors.ts';
import type { Approval, Artifact, Claim, HeartbeatAnswer, Problem, Task, ToolCall } from './types.ts';
import type { RequestBody } from './wire.ts';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  retry: RetryOptions;
}

export interface CallOptions {
  /** One per logical call, the same on each of its retries, so a retry whose first answer was lost creates nothing twice. */
  idempotencyKey: string;
  /** Aborting it ends the call at once (no retry); the call then rejects with the abort's error. */
  signal?: AbortSignal;
}

/** A try that hangs (a dead connection) counts as a network error and is retried. */
const ATTEMPT_TIMEOUT_MS = 30_000;

type Attempt<T> = { ok: true; value: T } | { ok: false; error: GatehouseError; waitMs?: number };

/**
 * The worker protocol's eight calls. Each is a JSON POST retried with full-jitter backoff while
 * its error is retryable (GatehouseError.retryable; `Retry-After` honoured), reusing its
 * Idempotency-Key; any other answer that is not 2xx throws a GatehouseError at once.
 */
export class GatehouseClient {
  readonly #options: ClientOptions;
  readonly #baseUrl: string;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** Waits on the server up to `wait_seconds` for a task; undefined when none came (204). */
  claim(agent: string, body: Required<RequestBody<'/agents/{agent_id}/claims'>>, call: CallOptions): Promise<Claim | undefined> {
    return this.#post(`/agents/${encodeURIComponent(agent)}/claims`, body, call, ATTEMPT_TIMEOUT_MS + body.wait_seconds * 1000);
  }

  heartbeat(taskId: string, body: RequestBody<'/tasks/{task_id}/heartbeat'>, call: CallOptions): Promise<HeartbeatAnswer> {
    return this.#answer(this.#task(taskId, 'heartbeat'), body, call);
  }

  emitArtifact(taskId: string, body: RequestBody<'/tasks/{task_id}/artifacts'>, call: CallOptions): Promise<Artifact> {
    return this.#answer(this.#task(taskId, 'artifacts'), body, call);
  }

  requestApproval(taskId: string, body: RequestBody<'/tasks/{task_id}/approvals'>, call: CallOptions): Promise<Approval> {
    return this.#answer(this.#task(taskId, 'approvals'), body, call);
  }

  callTool(taskId: string, body: RequestBody<'/tasks/{task_id}/tool-calls'>, call: CallOptions): Promise<ToolCall> {
    return this.#answer(this.#task(taskId, 'tool-calls'), body, call);
  }

  complete(taskId: string, body: RequestBody<'/tasks/{task_id}/complete'>, call: CallOptions): Promise<Task> {
    return this.#answer(this.#task(taskId, 'complete'), body, call);
  }

  fail(taskId: string, body: RequestBody<'/tasks/{task_id}/fail'>, call: CallOptions): Promise<Task> {
    return this.#answer(this.#task(taskId, 'fail'), body, call);
  }

  /** Gives the task back to the queue (graceful shutdown); not counted as a lost lease. */
  release(taskId: string, body: RequestBody<'/tasks/{task_id}/release'>, call: CallOptions): Promise<Task> {
    return this.#answer(this.#task(taskId, 'release'), body, call);
  }

  #task(taskId: string, action: string): string {
    return `/tasks/${encodeURIComponent(taskId)}/${action}`;
  }

  async #answer<T>(path: string, body: object, call: CallOptions): Promise<T> {
    const answer = await this.#post<T>(path, body, call, ATTEMPT_TIMEOUT_MS);
    if (answer === undefined) throw new GatehouseError({ status: 204, code: 'empty_answer', detail: `POST ${path} answered without a body` });
    return answer;
  }

  async #post<T>(path: string, body: object, call: CallOptions, timeoutMs: number): Promise<T | undefined> {
    const { attempts, maxMs } = this.#options.retry;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#try<T>(path, JSON.stringify(body), call, timeoutMs);
      if (outcome.ok) return outcome.value;
      if (!outcome.error.retryable || attempt >= attempts) throw outcome.error;
      await delay(Math.min(outcome.waitMs ?? backoffMs(attempt - 1, this.#options.retry), maxMs), undefined, { signal: call.signal });
    }
  }

  async #try<T>(path: string, body: string, call: CallOptions, timeoutMs: number): Promise<Attempt<T | undefined>> {
    const { fetch, apiKey } = this.#options;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      // Called unbound: a fetch that checks its receiver (browsers' does) refuses any other object.
      const response = await fetch(`${this.#baseUrl}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${apiKey}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Idempotency-Key': call.idempotencyKey,
        },
        body,
        signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
      });
      if (response.ok) return { ok: true, value: response.status === 204 ? undefined : ((await response.json()) as T) };
      return { ok: false, error: await problemOf(response), waitMs: retryAfterMs(response.headers.get('retry-after')) };
    } catch (error) {
      if (call.signal?.aborted) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, error: new GatehouseError({ status: 0, code: 'network_error', detail: `POST ${path}: ${detail}` }, { cause: error }) };
    }
  }
}

/** The problem+json of an error answer; an answer that is not one still yields a code and a detail. */
async function problemOf(response: Response): Promise<GatehouseError> {
  const text = await response.text().catch(() => '');
  let problem: Partial<Problem> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') problem = parsed as Partial<Problem>;
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): described by its status below.
  }
  return new GatehouseError({
    status: response.status,
    code: typeof problem.code === 'string' ? problem.code : `http_${response.status}`,
    detail: problem.detail ?? problem.title ?? (text.slice(0, 200) || response.statusText),
    errors: problem.errors,
  });
}
