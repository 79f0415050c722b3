// Through the module objects, read at each call: the X-Ray tracer records outbound HTTP by patching
// `http.request` and `https.request` there, which an ESM named import, bound at load, never sees.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { raceDeadline, withDeadline } from '#shared/adapters/http/deadline';
import { pinnedLookup } from '#shared/adapters/http/pinned-lookup';
import { assertDeliverableUrl, UndeliverableUrlError, type PinnedTarget, type Resolver } from '#shared/adapters/http/ssrf-guard';
import { SCANNER_PRODUCT_TOKEN } from '#shared/scans/crawler/robots-rules';
import type { CrawlOptions, FetchedPage, FetchFailureReason, FetchOutcome, PageFetcher } from '#shared/scans/model';

/**
 * One GET of a scan target's resource. Never throws for what the site or the network does:
 * every outcome is a page or a typed failure the crawler records as a problem.
 *
 * - The host is vetted by the SSRF guard and the socket pinned to that address, like webhook
 *   delivery: a scan target is customer-chosen and must not reach our own network.
 * - One deadline covers DNS, connect, TLS, headers and body, so a trickling server cannot hold
 *   a scan.
 * - Redirects are returned, not followed: each hop must be vetted again and kept same-origin,
 *   which is the crawler's decision.
 * - At most `maxBytes` of the body are kept; the rest is not read (`truncated`).
 * - Certificates are not enforced (`rejectUnauthorized: false`): the scanner only reads public
 *   pages and sends no secrets, and an invalid certificate is a finding to report, not a reason
 *   to see nothing. The verdict is kept in `tls.authorized`.
 */

export interface FetchPageOptions {
  /** Per-response body limit. */
  maxBytes: number;
  /** One deadline per request, from DNS to the body's last byte. */
  timeoutMs: number;
  allowLoopback: boolean;
  /** DNS override for tests; defaults to the system resolver. */
  resolve?: Resolver;
}

// Its product token is the one robots.txt groups name (robots-rules.ts).
const USER_AGENT = `${SCANNER_PRODUCT_TOKEN}/0.1 (+https://gatehouse.dev/scanner)`;

/** GETs `url` through the SSRF guard under one deadline; see the module comment. */
export function fetchPage(url: string, options: FetchPageOptions): Promise<FetchOutcome> {
  return withDeadline(options.timeoutMs, async (deadline) => {
    const outcome = await requestWithin(url, { method: 'GET', headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }, options, deadline);
    if (!outcome.ok) return outcome;
    const { response, body, truncated, tls } = outcome;
    return { ok: true, page: toPage(url, response, body.toString('utf8'), truncated, tls) };
  });
}

/** The crawl's PageFetcher over HTTP(S), with these limits for every page. */
export function httpPageFetcher(options: FetchPageOptions): PageFetcher {
  return (url) => fetchPage(url, options);
}

/** Options for a crawl of at most `maxPages` pages fetched over HTTP(S) with these limits, and its robots.txt and path settings. */
export function httpCrawlOptions({ maxPages, respectRobotsTxt, include, exclude, ...fetch }: FetchPageOptions & Omit<CrawlOptions, 'fetchPage'>): CrawlOptions {
  return { maxPages, fetchPage: httpPageFetcher(fetch), ...(respectRobotsTxt === undefined ? {} : { respectRobotsTxt }), ...(include ? { include } : {}), ...(exclude ? { exclude } : {}) };
}

/** One outbound request of a scan: the crawl's GETs, and every request a rendered page makes. */
export interface GuardedRequest {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export type GuardedAnswer =
  | { ok: true; response: IncomingMessage; body: Buffer; truncated: boolean; tls?: FetchedPage['tls'] }
  | { ok: false; url: string; reason: FetchFailureReason; message: string };

/**
 * Sends `request` to `url` through the SSRF guard, pinned to the vetted address, under `deadline`;
 * keeps at most `options.maxBytes` of the body. Redirects are answers, never followed here.
 */
export async function requestWithin(url: string, request: GuardedRequest, options: FetchPageOptions, deadline: AbortSignal): Promise<GuardedAnswer> {
  const fail = (reason: FetchFailureReason, message: string): GuardedAnswer => ({ ok: false, url, reason, message });
  let target: PinnedTarget;
  try {
    target = await raceDeadline(assertDeliverableUrl(url, { allowLoopback: options.allowLoopback, resolve: options.resolve }), deadline);
  } catch (error) {
    if (deadline.aborted) return fail('timeout', `timed out after ${options.timeoutMs} ms resolving the host`);
    if (error instanceof UndeliverableUrlError && error.reason !== 'dns_failure') return fail('blocked_url', error.message);
    return fail('unreachable', (error as Error).message);
  }

  return new Promise<GuardedAnswer>((resolve) => {
    let settled = false;
    const finish = (outcome: GuardedAnswer) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onDeadline);
      req.destroy();
      resolve(outcome);
    };
    const onDeadline = () => finish(fail('timeout', `timed out after ${options.timeoutMs} ms`));

    const isHttps = target.url.protocol === 'https:';
    const req = (isHttps ? https.request : http.request)(target.url, {
      method: request.method,
      headers: { ...request.headers, 'User-Agent': USER_AGENT, 'Accept-Encoding': 'identity', Connection: 'close' },
      lookup: pinnedLookup(target),
      // A fresh socket per request: a pooled one could belong to an earlier resolution of the name.
      agent: false,
      ...(isHttps ? { rejectUnauthorized: false, ...(target.hostname !== target.address ? { servername: target.hostname } : {}) } : {}),
    });
    req.on('response', (response: IncomingMessage) => {
      const tls = isHttps ? tlsFacts(response.socket as TLSSocket) : undefined;
      readBody(response, options.maxBytes, (body, truncated) => {
        finish({ ok: true, response, body, truncated, ...(tls ? { tls } : {}) });
      }, (message) => finish(fail('unreachable', message)));
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish(fail('unreachable', error.code ?? error.message)));
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener('abort', onDeadline, { once: true });
    req.end(request.body);
  });
}

/** Collects up to `maxBytes`; stops reading once the cap is reached. */
function readBody(response: IncomingMessage, maxBytes: number, done: (body: Buffer, truncated: boolean) => void, failed: (message: string) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  response.on('data', (chunk: Buffer) => {
    const room = maxBytes - received;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      received = maxBytes;
      done(Buffer.concat(chunks), true);
      return;
    }
    chunks.push(chunk);
    received += chunk.length;
  });
  response.on('end', () => done(Buffer.concat(chunks), false));
  response.on('error', (error) => failed(error.message));
  response.on('aborted', () => failed('connection closed while reading the body'));
}

function toPage(url: string, response: IncomingMessage, body: string, truncated: boolean, tls: FetchedPage['tls']): FetchedPage {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(response.headersDistinct)) {
    if (name !== 'set-cookie' && values) headers[name] = values.join(', ');
  }
  return {
    url,
    final_url: url,
    status: response.statusCode ?? 0,
    headers,
    set_cookies: response.headersDistinct['set-cookie'] ?? [],
    content_type: (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase(),
    body,
    truncated,
    ...(tls ? { tls } : {}),
  };
}

function tlsFacts(socket: TLSSocket): NonNullable<FetchedPage['tls']> {
  const cert = socket.getPeerCertificate?.();
  const cipher = socket.getCipher?.();
  const issuer = cert?.issuer ? Object.entries(cert.issuer).map(([key, value]) => `${key}=${String(value)}`).join(', ') : undefined;
  const error = socket.authorizationError as unknown;
  return {
    protocol: socket.getProtocol?.() ?? undefined,
    cipher: cipher?.name,
    valid_to: cert?.valid_to || undefined,
    issuer: issuer || undefined,
    authorized: socket.authorized === true,
    ...(error ? { authorization_error: error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error) } : {}),
  };
}
