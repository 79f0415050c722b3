import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup } from '#shared/adapters/http/pinned-lookup';
import type { PinnedTarget } from '#shared/adapters/http/ssrf-guard';

/** Statuses whose answer has no body (a Response refuses one). */
const BODILESS = new Set([101, 204, 205, 304]);

async function bodyBytes(body: unknown): Promise<Buffer | undefined> {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return Buffer.from(body as ArrayBuffer);
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer());
}

function responseOf(answer: IncomingMessage, chunks: Buffer[]): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  const status = answer.statusCode ?? 502;
  return new Response(BODILESS.has(status) ? null : Buffer.concat(chunks), { status, statusText: answer.statusMessage ?? '', headers });
}

/**
 * A WHATWG `fetch` whose every connection goes to the vetted address (node:http(s) with a pinned
 * lookup, as webhook deliveries connect): for clients that take a fetch (Octokit, Slack's
 * WebClient), so a name whose DNS answer changes after the SSRF check (rebinding) cannot redirect
 * them. TLS still checks the certificate against the host name. Network errors are TypeErrors, as
 * fetch's are.
 */
export function pinnedFetch(pin: PinnedTarget): typeof fetch {
  const lookup = pinnedLookup(pin);
  return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    if (init?.body instanceof URLSearchParams && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    const body = await bodyBytes(init?.body ?? (input instanceof Request ? await input.arrayBuffer() : undefined));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const request = send(url, { method: init?.method ?? (input instanceof Request ? input.method : 'GET'), headers: Object.fromEntries(headers), lookup, ...(init?.signal ? { signal: init.signal } : {}) }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve(responseOf(answer, chunks)));
        answer.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      });
      request.on('error', (error) => reject(error.name === 'AbortError' ? error : new TypeError('fetch failed', { cause: error })));
      request.end(body);
    });
  }) as typeof fetch;
}
