import { randomUUID } from 'node:crypto';
import type { HttpClient } from './http.ts';
import type { CreatedScan, CreateScanBody, Finding, Page, Scan, ScanSummary } from './wire.ts';

/** Pages read from one list at most: a list longer than this is a bug somewhere, not a site. */
export const MAX_PAGES = 250;
const FINDINGS_PAGE = 200;
const SCANS_PAGE = 100;
const CANCEL_TIMEOUT_MS = 3_000;

/** The scan routes the CLI calls, over an HttpClient that retries. */
export class ScansApi {
  readonly #http: HttpClient;
  readonly #signal: AbortSignal | undefined;

  /** `signal` aborts every call in flight (SIGINT, SIGTERM); `cancelScan` alone ignores it. */
  constructor(http: HttpClient, signal?: AbortSignal) {
    this.#http = http;
    this.#signal = signal;
  }

  /** Starts a scan. One Idempotency-Key for all tries, so that a retry after a lost answer starts no second scan. */
  createScan(projectId: string, body: CreateScanBody): Promise<CreatedScan> {
    return this.#http.json('POST', `/projects/${encodeURIComponent(projectId)}/scans`, { body, idempotencyKey: `gatehouse-cli-${randomUUID()}`, signal: this.#signal });
  }

  getScan(scanId: string): Promise<Scan> {
    return this.#http.json('GET', `/scans/${encodeURIComponent(scanId)}`, { signal: this.#signal });
  }

  /** Every finding of the scan, page by page. */
  findings(scanId: string): Promise<Finding[]> {
    return this.#all((cursor) => this.#http.json<Page<Finding>>('GET', `/scans/${encodeURIComponent(scanId)}/findings`, { query: { limit: FINDINGS_PAGE, cursor }, signal: this.#signal }));
  }

  /** The project's completed scans, newest first, one page at a time (the caller stops when it found what it looks for). */
  async *completedScans(projectId: string): AsyncGenerator<ScanSummary> {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.#http.json<Page<ScanSummary>>('GET', `/projects/${encodeURIComponent(projectId)}/scans`, { query: { status: 'completed', limit: SCANS_PAGE, cursor }, signal: this.#signal });
      yield* answer.data;
      if (answer.next_cursor === null) return;
      cursor = answer.next_cursor;
    }
  }

  /** The scan's SARIF 2.1.0 log, as the API exports it. */
  sarif(scanId: string): Promise<Uint8Array> {
    return this.#http.bytes(`/scans/${encodeURIComponent(scanId)}/export`, { query: { format: 'sarif' }, signal: this.#signal });
  }

  /**
   * Best effort on the way out (a timeout, a signal): two short tries, not tied to the run's
   * signal, which has usually aborted by then; CI runners kill a job a few seconds after SIGTERM.
   * A scan that already ended answers 409, which is fine too.
   */
  async cancelScan(scanId: string): Promise<boolean> {
    try {
      await this.#http.json('POST', `/scans/${encodeURIComponent(scanId)}/cancel`, { attempts: 2, timeoutMs: CANCEL_TIMEOUT_MS });
      return true;
    } catch {
      return false;
    }
  }

  async #all<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let count = 0; count < MAX_PAGES; count++) {
      const answer = await page(cursor);
      items.push(...answer.data);
      if (answer.next_cursor === null) return items;
      cursor = answer.next_cursor;
    }
    throw new Error(`The list did not end after ${MAX_PAGES} pages.`);
  }
}
