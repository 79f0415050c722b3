import type { BrowserContext, Page, Route } from 'playwright-core';
import { withDeadline } from '#shared/adapters/http/deadline';
import { requestWithin, type FetchPageOptions } from '#shared/adapters/http/fetch-page';
import { launchChromium, type LaunchedBrowser } from '#shared/adapters/browser/chromium';
import type { FetchedPage } from '#shared/scans/model';
import type { InPageScript, PageFailureReason, PageRenderer, RenderOutcome } from '#shared/scans/page-renderer';

/**
 * Renders crawled pages in headless Chromium, one page at a time in one browser. Every request a
 * page makes (subresources, redirects, fetch/XHR, frames, popups) is intercepted and sent by us
 * through the scan's SSRF guard, pinned to the vetted address; nothing reaches the network from
 * the browser itself (chromium.ts locks that down too). The page's own document is the crawled
 * HTML, so what is audited is what the crawl fetched and the source positions match.
 */

export interface BrowserRenderLimits {
  /** Rendering plus evaluation of one page. */
  pageTimeoutMs: number;
  /** The longest wait for the network to go quiet after `load` (content rendered by scripts). */
  networkIdleMs: number;
  /** Subresource requests one page may make; later ones are aborted. */
  maxRequestsPerPage: number;
  /** Bytes of subresources one page may load in all. */
  maxBytesPerPage: number;
}

export interface BrowserRendererOptions extends FetchPageOptions, BrowserRenderLimits {
  launch?: () => Promise<LaunchedBrowser>;
}

/** Redirect hops followed per request, as the crawler follows. */
const MAX_REDIRECTS = 5;

/** Time left to close a page that ran out of time before the browser is given up on. */
const CLOSE_GRACE_MS = 3_000;

class PageFailure extends Error {
  constructor(
    readonly reason: PageFailureReason,
    message: string,
  ) {
    super(message);
  }
}

/** What one page's interception has spent, and what the guard refused. */
interface PageBudget {
  document: FetchedPage;
  requests: number;
  bytes: number;
  blocked: string[];
  deadline: AbortSignal;
}

export function browserPageRenderer(options: BrowserRendererOptions): PageRenderer {
  const launch = options.launch ?? launchChromium;
  let browser: Promise<{ launched: LaunchedBrowser; context: BrowserContext }> | undefined;
  // Set when the running browser exits on its own: a page took it down.
  let browserExited = false;
  let current: PageBudget | undefined;

  async function start(): Promise<{ launched: LaunchedBrowser; context: BrowserContext }> {
    const launched = await launch();
    browserExited = false;
    launched.browser.on('disconnected', () => (browserExited = true));
    // bypassCSP: our audit script is evaluated into pages whose policy forbids inline scripts.
    const context = await launched.browser.newContext({ serviceWorkers: 'block', bypassCSP: true, javaScriptEnabled: true, acceptDownloads: false, viewport: { width: 1280, height: 800 } });
    await context.route('**/*', (route) => answer(route));
    // A page's WebSockets are answered by nobody: the interception cannot vet a socket's traffic.
    await context.routeWebSocket(/.*/, (socket) => void socket.close({ code: 1008, reason: 'Not available while scanning' }));
    // Popups and windows a page opens are not audited; their requests would still pass the guard.
    context.on('page', (opened) => void (opened.opener().then((opener) => opener && opened.close().catch(() => undefined))));
    return { launched, context };
  }

  async function answer(route: Route): Promise<void> {
    const request = route.request();
    const budget = current;
    if (!budget) return route.abort('blockedbyclient').catch(() => undefined);
    if (request.isNavigationRequest() && request.frame().parentFrame() === null && request.url() === budget.document.final_url) {
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: budget.document.body });
    }
    if (budget.deadline.aborted) return route.abort('blockedbyclient').catch(() => undefined);
    const body = request.postDataBuffer() ?? undefined;
    let method = request.method();
    let url = request.url();
    let headers = forwardable(await request.allHeaders());
    // Chromium does not follow a redirect it was answered with through the interception, so hops
    // are followed here, each one vetted by the guard again.
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (++budget.requests > options.maxRequestsPerPage) return route.abort('blockedbyclient').catch(() => undefined);
      const limits = { ...options, maxBytes: Math.max(0, Math.min(options.maxBytes, options.maxBytesPerPage - budget.bytes)) };
      const sent = await withDeadline(options.timeoutMs, (deadline) => requestWithin(url, { method, headers, ...(body && hop === 0 ? { body } : {}) }, limits, AbortSignal.any([deadline, budget.deadline])));
      if (!sent.ok) {
        if (sent.reason === 'blocked_url') budget.blocked.push(url);
        return route.abort(sent.reason === 'timeout' ? 'timedout' : sent.reason === 'blocked_url' ? 'blockedbyclient' : 'failed').catch(() => undefined);
      }
      budget.bytes += sent.body.length;
      const status = sent.response.statusCode ?? 502;
      const location = sent.response.headers.location;
      if (status >= 300 && status < 400 && location && hop < MAX_REDIRECTS) {
        url = new URL(location, url).href;
        // 303, and 301/302 after a POST, continue as GET without a body, as browsers do.
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) method = 'GET';
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !['content-type', 'origin'].includes(name.toLowerCase())));
        continue;
      }
      // A cut resource is a broken one: the page sees it fail, as a user's browser would see a reset.
      if (sent.truncated) return route.abort('failed').catch(() => undefined);
      const responseHeaders: Record<string, string> = {};
      for (const [name, values] of Object.entries(sent.response.headersDistinct)) if (values) responseHeaders[name] = values.join(name === 'set-cookie' ? '\n' : ', ');
      return route.fulfill({ status, headers: responseHeaders, body: sent.body }).catch(() => undefined);
    }
    return route.abort('failed').catch(() => undefined);
  }

  async function renderOnce<A, T>(page: FetchedPage, script: InPageScript<A, T>): Promise<RenderOutcome<T>> {
    return withDeadline(options.pageTimeoutMs, async (deadline) => {
      const budget: PageBudget = { document: page, requests: 0, bytes: 0, blocked: [], deadline };
      const timedOut = new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(new PageFailure('render_timeout', `the page took longer than ${options.pageTimeoutMs} ms to render and audit`)), { once: true }));
      timedOut.catch(() => undefined);
      current = budget;
      let tab: Page | undefined;
      try {
        const work = (async () => {
          browser ??= start();
          const { context } = await browser;
          tab = await context.newPage();
          const crashed = new Promise<never>((_, reject) => tab!.once('crash', () => reject(new PageFailure('page_crashed', 'the page crashed the browser tab (out of memory or a renderer fault)'))));
          crashed.catch(() => undefined);
          const rendered = (async () => {
            await tab!.goto(page.final_url, { waitUntil: 'load', timeout: options.pageTimeoutMs });
            // Content that scripts render after load: wait for the network to go quiet, within bounds.
            await tab!.waitForLoadState('networkidle', { timeout: options.networkIdleMs }).catch(() => undefined);
            for (const library of script.libraries) await tab!.evaluate(library);
            // Serialised into the page; playwright types the argument as it arrives there (Unboxed<A>).
            return await tab!.evaluate(script.run as unknown as (arg: unknown) => Promise<T>, script.arg);
          })();
          return Promise.race([rendered, crashed]);
        })();
        const value = await Promise.race([work, timedOut]);
        current = undefined;
        // A tab that will not close is a browser that stopped answering: the next page gets a fresh one.
        if (!(await closeWithin(tab!, CLOSE_GRACE_MS))) await discardBrowser();
        return { ok: true, value, blocked_requests: budget.blocked };
      } catch (error) {
        current = undefined;
        const message = (error as Error).message.split('\n')[0];
        // The browser's exit can reach us after the call it broke fails with "closed" or "crashed".
        const exited = browserExited || /crash|closed/i.test(message);
        // After a failure the browser may be spinning (a one-process browser runs page scripts on
        // its own thread) or gone: it is killed, and the next page starts a fresh one.
        await discardBrowser();
        if (error instanceof PageFailure) return { ok: false, reason: error.reason, message: error.message };
        if (exited) return { ok: false, reason: 'page_crashed', message: 'the page took the browser down (out of memory or a renderer fault)' };
        return { ok: false, reason: 'render_failed', message };
      }
    });
  }

  async function discardBrowser(): Promise<void> {
    const stale = browser;
    browser = undefined;
    await stale?.then(({ launched }) => launched.kill()).catch(() => undefined);
  }

  return { evaluate: renderOnce, close: discardBrowser };
}

/** Headers Chromium sets that we must not forward as ours (the guard's request sets its own). */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'user-agent', 'upgrade-insecure-requests']);

function forwardable(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase()) && !name.startsWith(':')));
}

async function closeWithin(tab: Page, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const closed = tab.close().then(() => true, () => true);
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([closed, late]);
  } finally {
    clearTimeout(timer);
  }
}
