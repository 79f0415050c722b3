import type { FetchedPage } from '#shared/scans/model';

/**
 * What a detector asks of a browser, without naming one: render a crawled page as a user's browser
 * would (its scripts run, its subresources load, layout exists) and evaluate code in it. The
 * adapter (shared/adapters/browser/) owns the browser, the network guard and the bounds.
 */

/** Code evaluated in the rendered page: `libraries` run first (e.g. axe-core's source), then `run(arg)`. */
export interface InPageScript<A, T> {
  libraries: readonly string[];
  /** Serialised into the page, so it may use only its argument and the page's globals. */
  run: (arg: A) => T | Promise<T>;
  arg: A;
}

/** Why a page could not be rendered and evaluated; each fails that page only. */
export type PageFailureReason = 'render_timeout' | 'page_crashed' | 'page_too_heavy' | 'render_failed';

/** A rendered page's result, with the URLs of its requests the SSRF guard refused (never sent). */
export type RenderOutcome<T> = { ok: true; value: T; blocked_requests: string[] } | { ok: false; reason: PageFailureReason; message: string };

export interface PageRenderer {
  /** Renders `page` (its crawled HTML is the document; everything else goes through the guard) and evaluates `script`. */
  evaluate<A, T>(page: FetchedPage, script: InPageScript<A, T>): Promise<RenderOutcome<T>>;
  /** Ends the browser; the renderer cannot be used afterwards. */
  close(): Promise<void>;
}
