// Through the module objects, read at each call: the X-Ray tracer records outbound HTTP by patching
// `http.request` and `https.request` there, which an ESM named import, bound at load, never sees.
import http, { type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import { raceDeadline } from '#shared/adapters/http/deadline';
import { connectionPool } from '#shared/adapters/http/delivery-connections';
import { pinnedLookup } from '#shared/adapters/http/pinned-lookup';
import { ExcerptCollector } from '#shared/adapters/http/response-excerpt';
import { assertDeliverableUrl, UndeliverableUrlError, type PinnedTarget, type Resolver } from '#shared/adapters/http/ssrf-guard';
import type { ResponseExcerpt } from '#shared/domain/webhook';

/**
 * One webhook POST. Never throws for anything the endpoint or the network does: every outcome is
 * a result the retry logic can act on.
 *
 * - The host is resolved and vetted once (ssrf-guard) and the socket connects to that pinned
 *   address through a custom `lookup`, while the Host header and TLS SNI/certificate check still
 *   use the URL's hostname. Nothing resolves the name a second time, so DNS rebinding between
 *   check and connect cannot redirect the request.
 * - Redirects are not followed (node:http never does): a 3xx is a failure, and following it
 *   would bypass the address check.
 * - One deadline covers DNS, connect, TLS, the request and the response headers. Once a status
 *   has arrived in time the outcome is fixed; draining the body is best effort under the same deadline.
 * - At most 64 KiB of the response body is read, so an endless body cannot hold the worker; only
 *   its first bytes are kept (response-excerpt.ts), as the attempt's `response`, for people to see.
 * - Connections are kept alive per vetted address (delivery-connections.ts). One whose response
 *   ended is reused; one cut short (deadline, body limit, error) is closed. A kept connection the
 *   receiver closed just as it was reused fails before any answer: that request is sent once more,
 *   on a fresh connection (a receiver that did read it dedupes by X-Service-Delivery).
 */

export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface DeliverWebhookInput {
  url: string;
  /** The exact bytes that were signed. */
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  allowLoopback: boolean;
  /** DNS override for tests; defaults to the system resolver. */
  resolve?: Resolver;
}

export type DeliveryFailure = 'blocked_url' | 'timeout' | 'network' | 'http_status';

export interface DeliveryResult {
  /** 2xx within the deadline. */
  ok: boolean;
  statusCode?: number;
  latencyMs: number;
  error?: string;
  /** 410 Gone: the receiver asks us to stop (decideEndpointDisable acts on it). */
  gone: boolean;
  /** Why it failed, for metrics and logs; unset on success. */
  failure?: DeliveryFailure;
  /** The start of the answer, whenever a status arrived. */
  response?: ResponseExcerpt;
}

/** POSTs a signed webhook to its vetted, pinned address; see the module comment for the rules. */
export async function deliverWebhook(input: DeliverWebhookInput): Promise<DeliveryResult> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadlineController = new AbortController();
  // A referenced timer (unlike AbortSignal.timeout's) keeps the process alive until the deadline
  // even when a hung DNS lookup holds no handle; it is cleared as soon as the outcome is known.
  const timer = setTimeout(() => deadlineController.abort(), timeoutMs);
  try {
    return await send(input, timeoutMs, deadlineController.signal, elapsed);
  } finally {
    clearTimeout(timer);
  }
}

async function send(input: DeliverWebhookInput, timeoutMs: number, deadline: AbortSignal, elapsed: () => number): Promise<DeliveryResult> {
  let target: PinnedTarget;
  try {
    target = await raceDeadline(assertDeliverableUrl(input.url, { allowLoopback: input.allowLoopback, resolve: input.resolve }), deadline);
  } catch (error) {
    if (deadline.aborted) return failed('timeout', `timed out after ${timeoutMs} ms resolving the host`, elapsed());
    const blocked = error instanceof UndeliverableUrlError;
    return failed(blocked ? 'blocked_url' : 'network', (error as Error).message, elapsed());
  }

  const pooled = await exchange(target, input, timeoutMs, deadline, elapsed, connectionPool(target));
  if (pooled !== STALE_CONNECTION) return pooled;
  // A fresh connection is never stale.
  return (await exchange(target, input, timeoutMs, deadline, elapsed, false)) as DeliveryResult;
}

/** A kept-alive connection failed before any answer: the receiver had closed it. */
const STALE_CONNECTION = Symbol('stale connection');

/** One request and its response, on a pooled connection or (`agent: false`) a fresh one. */
function exchange(target: PinnedTarget, input: DeliverWebhookInput, timeoutMs: number, deadline: AbortSignal, elapsed: () => number, agent: http.Agent | false): Promise<DeliveryResult | typeof STALE_CONNECTION> {
  return new Promise((resolve) => {
    let settled = false;
    let statusCode: number | undefined;
    let collector: ExcerptCollector | undefined;
    let bodyEnded = false;
    /** `reusable`: the response ended, so its connection goes back to the pool instead of closing. */
    const finish = (result: DeliveryResult | typeof STALE_CONNECTION, reusable = false) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onDeadline);
      if (!reusable) req.destroy();
      resolve(result);
    };
    const fromStatus = (): DeliveryResult => {
      const code = statusCode as number;
      const ok = code >= 200 && code < 300;
      const response = collector?.excerpt(bodyEnded);
      return ok
        ? { ok, statusCode: code, latencyMs: elapsed(), gone: false, ...(response ? { response } : {}) }
        : { ok, statusCode: code, latencyMs: elapsed(), gone: code === 410, error: `HTTP ${code}`, failure: 'http_status', ...(response ? { response } : {}) };
    };
    const onDeadline = () => {
      finish(statusCode === undefined ? failed('timeout', `timed out after ${timeoutMs} ms`, elapsed()) : fromStatus());
    };

    const req = (target.url.protocol === 'https:' ? https.request : http.request)(target.url, requestOptions(target, input, agent));
    req.on('response', (response: IncomingMessage) => {
      statusCode = response.statusCode ?? 0;
      const excerpt = new ExcerptCollector(statusCode, response.headers['content-type']);
      collector = excerpt;
      drain(response, excerpt, (ended) => {
        bodyEnded = ended;
        finish(fromStatus(), ended);
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (statusCode === undefined && req.reusedSocket && !deadline.aborted && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return finish(STALE_CONNECTION);
      finish(statusCode === undefined ? failed('network', error.code ?? error.message, elapsed()) : fromStatus());
    });
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener('abort', onDeadline, { once: true });
    req.end(input.body, 'utf8');
  });
}

function requestOptions(target: PinnedTarget, input: DeliverWebhookInput, agent: http.Agent | false): RequestOptions & { servername?: string } {
  // The caller's headers never override framing or the Host that belongs to the URL.
  const headers = Object.fromEntries(
    Object.entries(input.headers).filter(([name]) => !['host', 'content-length', 'transfer-encoding', 'connection'].includes(name.toLowerCase())),
  );
  return {
    method: 'POST',
    headers: { ...headers, 'Content-Length': String(Buffer.byteLength(input.body, 'utf8')) },
    // Only new connections look up the name; the pool is the pinned address's own.
    lookup: pinnedLookup(target),
    agent,
    // SNI and certificate verification are for the name the client registered, not the pinned IP.
    ...(target.url.protocol === 'https:' && target.hostname !== target.address ? { servername: target.hostname } : {}),
  };
}

/** Reads up to MAX_RESPONSE_BYTES, keeping the excerpt's share, then calls `done` once: `ended` at the body's end, not at the limit or an error. */
function drain(response: IncomingMessage, excerpt: ExcerptCollector, done: (ended: boolean) => void): void {
  let received = 0;
  let called = false;
  const once = (ended: boolean) => {
    if (!called) {
      called = true;
      done(ended);
    }
  };
  response.on('data', (chunk: Buffer) => {
    received += chunk.length;
    excerpt.add(chunk);
    if (received >= MAX_RESPONSE_BYTES) once(false);
  });
  response.on('end', () => once(true));
  response.on('error', () => once(false));
  response.on('aborted', () => once(false));
}

function failed(failure: DeliveryFailure, error: string, latencyMs: number): DeliveryResult {
  return { ok: false, latencyMs, error, gone: false, failure };
}
