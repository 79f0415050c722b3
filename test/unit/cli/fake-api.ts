import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Detector, Finding, Scan, Severity } from '../../../sdk/cli/src/wire.ts';

/**
 * A stand-in for Gatehouse's scan routes on 127.0.0.1, for the CLI's own tests: projects, scans
 * that move one step per read, paged findings and scans, SARIF exports (inline or through a
 * redirect to a "bucket"), cancels, and scripted failures. Every request is recorded.
 */

export type Route = 'createScan' | 'getScan' | 'listScans' | 'findings' | 'export' | 'cancel' | 'bucket';

export interface RecordedRequest {
  route: Route;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body?: Record<string, any>;
  at: number;
}

/** An answer to give instead of the route's own: a status (with headers), a hang, or a dropped connection. */
export type Scripted = { status: number; code?: string; headers?: Record<string, string> } | { hang: true } | { drop: true };

/** How the next created scan goes: its findings, how it ends, and how many reads it stays running. */
export interface ScanPlan {
  findings: FindingSpec[];
  outcome: 'completed' | 'failed' | 'never';
  runningReads: number;
}

export type FindingSpec = { id: string; severity: Severity; status?: Finding['status']; rule_id?: string };

interface ScanRecord {
  scan: Scan;
  findings: Finding[];
  plan: ScanPlan;
  reads: number;
}

export const API_KEY = 'gh_test_cli_key';
export const PROJECT = 'prj_cli';
const DETECTORS: Detector[] = ['accessibility', 'security'];

export function finding({ id, severity, status = 'open', rule_id = `security.rule-${id}` }: FindingSpec): Finding {
  return { id, detector: 'security', severity, rule_id, title: `Problem ${id}`, status, location: { url: `https://shop.example/${id}` } };
}

export class FakeApi {
  readonly requests: RecordedRequest[] = [];
  /** How the next created scan goes; tests set it before running the CLI. */
  plan: ScanPlan = { findings: [], outcome: 'completed', runningReads: 2 };
  /** Page sizes the fake uses, whatever the client asks, so that paging is exercised with few items. */
  pageSize = 2;
  exportThroughBucket = false;
  readonly #server = createServer((req, res) => {
    this.#handle(req, res).catch((error: unknown) => send(res, problem(500, 'fake_broke', String(error))));
  });
  readonly #scans = new Map<string, ScanRecord>();
  readonly #scripts = new Map<Route, Scripted[]>();
  readonly #createdIds: string[] = [];
  #ids = 0;

  static async start(): Promise<FakeApi> {
    const fake = new FakeApi();
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  /** The next requests to `route` get these answers, in order, before the route's own. */
  script(route: Route, ...answers: Scripted[]): void {
    this.#scripts.set(route, [...(this.#scripts.get(route) ?? []), ...answers]);
  }

  /** A scan that completed before the CLI runs, on `branch`, with these findings; returns its id. */
  addCompletedScan(branch: string | undefined, findings: FindingSpec[]): string {
    const record = this.#newScan(branch === undefined ? {} : { branch }, { findings, outcome: 'completed', runningReads: 0 });
    this.#end(record, 'completed');
    return record.scan.scan_id;
  }

  scan(scanId: string): Scan {
    const record = this.#scans.get(scanId);
    if (!record) throw new Error(`no scan ${scanId}`);
    return record.scan;
  }

  /** The scans the CLI created, oldest first. */
  created(): Scan[] {
    return this.#createdIds.map((scanId) => this.scan(scanId));
  }

  sent(route?: Route): RecordedRequest[] {
    return this.requests.filter((request) => !route || request.route === route);
  }

  #newScan(metadata: Record<string, string | number | boolean>, plan: ScanPlan): ScanRecord {
    const scanId = `scn_${String(++this.#ids).padStart(6, '0')}`;
    const scan: Scan = { scan_id: scanId, project_id: PROJECT, status: 'pending', created_at: new Date().toISOString(), detectors: DETECTORS, metadata };
    const record = { scan, findings: plan.findings.map(finding), plan, reads: 0 };
    this.#scans.set(scanId, record);
    return record;
  }

  #end(record: ScanRecord, status: 'completed' | 'failed' | 'cancelled'): void {
    const failed = status === 'failed';
    const summary = { total: record.findings.length, critical: 0, high: 0, medium: 0, low: 0, info: 0 };
    for (const item of record.findings) summary[item.severity] += 1;
    const { progress: _progress, ...rest } = record.scan;
    void _progress;
    const names = Array.isArray(rest.detectors) ? rest.detectors : DETECTORS;
    record.scan = {
      ...rest,
      status,
      ...(status === 'cancelled'
        ? {}
        : {
            risk_score: failed ? 0 : 27,
            risk_level: failed ? 'low' : 'medium',
            duration_seconds: 3,
            completed_at: new Date().toISOString(),
            detectors: Object.fromEntries(names.map((name) => [name, failed ? { status: 'failed', risk_score: 0, risk_level: 'low', summary, error: 'The target could not be scanned: connection refused' } : { status: 'completed', risk_score: 27, risk_level: 'medium', summary }])),
          }),
    };
  }

  /** One step per read: pending, then running (a detector done halfway), then the planned end. */
  #advance(record: ScanRecord): void {
    if (['completed', 'failed', 'cancelled'].includes(record.scan.status)) return;
    record.reads += 1;
    const { runningReads, outcome } = record.plan;
    if (record.reads === 1) return;
    if (outcome !== 'never' && record.reads > runningReads + 1) return this.#end(record, outcome);
    // The first detector ends halfway, the others with the scan.
    const halfway = record.reads > runningReads / 2 + 1;
    const names = record.scan.detectors as Detector[];
    record.scan = { ...record.scan, status: 'running', progress: Object.fromEntries(names.map((name, index) => [name, index === 0 && halfway ? 'completed' : 'running'])) };
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.origin);
    const route = routeOf(req.method ?? 'GET', url.pathname);
    if (!route) return send(res, problem(404, 'not_found', `${req.method} ${url.pathname}`));
    this.requests.push({ route, method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: text ? JSON.parse(text) : undefined, at: Date.now() });
    const scripted = this.#scripts.get(route)?.shift();
    if (scripted && 'hang' in scripted) return;
    if (scripted && 'drop' in scripted) return void req.socket.destroy();
    if (scripted) return send(res, problem(scripted.status, scripted.code ?? 'scripted', 'a scripted answer', scripted.headers));
    if (route === 'bucket') return send(res, req.headers.authorization ? problem(400, 'key_sent_to_bucket', 'the bucket link is signed; no key') : sarifAnswer(url.pathname));
    if (req.headers.authorization !== `Bearer ${API_KEY}`) return send(res, problem(401, 'unauthorized', 'A valid API key is required.', undefined, 'Unauthorized'));
    send(res, this.#answer(route, url, text ? JSON.parse(text) : {}));
  }

  #answer(route: Route, url: URL, body: Record<string, any>): Answer {
    const [, , , id] = url.pathname.split('/');
    if (route === 'createScan' || route === 'listScans') {
      if (id !== PROJECT) return problem(404, 'project_not_found', `The project ${id} does not exist.`, undefined, 'Not Found');
      if (route === 'listScans') {
        const completed = [...this.#scans.values()].filter((record) => record.scan.status === 'completed').reverse();
        return this.#page(completed.map(({ scan }) => ({ scan_id: scan.scan_id, status: scan.status, risk_score: scan.risk_score, risk_level: scan.risk_level, created_at: scan.created_at, completed_at: scan.completed_at })), url, 'data');
      }
      const record = this.#newScan(body.metadata ?? {}, this.plan);
      this.#createdIds.push(record.scan.scan_id);
      if (body.detectors) record.scan.detectors = body.detectors;
      const { scan } = record;
      return { status: 201, body: { scan_id: scan.scan_id, project_id: scan.project_id, status: scan.status, detectors: scan.detectors, created_at: scan.created_at, estimated_duration_seconds: 4 } };
    }
    const record = this.#scans.get(id);
    if (!record) return problem(404, 'scan_not_found', `The scan ${id} does not exist.`, undefined, 'Not Found');
    switch (route) {
      case 'getScan':
        this.#advance(record);
        return { status: 200, body: record.scan };
      case 'findings':
        return this.#page(record.findings, url, 'data');
      case 'export':
        if (url.searchParams.get('format') !== 'sarif') return problem(400, 'validation_error', 'format');
        return this.exportThroughBucket ? { status: 303, body: undefined, headers: { Location: `/bucket/${id}.sarif?X-Amz-Expires=300` } } : sarifAnswer(id);
      case 'cancel':
        if (['completed', 'failed', 'cancelled'].includes(record.scan.status)) return problem(409, 'scan_not_cancellable', `The scan is ${record.scan.status}.`);
        this.#end(record, 'cancelled');
        return { status: 200, body: { scan_id: id, status: 'cancelled' } };
      default:
        return problem(404, 'not_found', url.pathname);
    }
  }

  #page(items: unknown[], url: URL, key: string): Answer {
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const end = start + this.pageSize;
    return { status: 200, body: { [key]: items.slice(start, end), total: items.length, has_more: end < items.length, next_cursor: end < items.length ? String(end) : null } };
  }
}

function routeOf(method: string, path: string): Route | undefined {
  if (path.startsWith('/bucket/')) return 'bucket';
  if (/^\/v1\/projects\/[^/]+\/scans$/.test(path)) return method === 'POST' ? 'createScan' : 'listScans';
  const scan = /^\/v1\/scans\/[^/]+(\/(findings|export|cancel))?$/.exec(path);
  if (!scan) return undefined;
  return ({ '': 'getScan', findings: 'findings', export: 'export', cancel: 'cancel' } as const)[(scan[2] ?? '') as '' | 'findings' | 'export' | 'cancel'];
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: string;
}

/** A small SARIF log, its run naming the scan so a test can tell which export it got. */
function sarifAnswer(from: string): Answer {
  return { status: 200, raw: JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'Gatehouse' } }, results: [], properties: { from } }] }), headers: { 'Content-Type': 'application/sarif+json' } };
}

function problem(status: number, code: string, detail: string, headers?: Record<string, string>, title = code): Answer {
  return { status, body: { type: `/v1/problems/${code}`, title, status, detail, code }, headers };
}

function send(res: ServerResponse, { status, body, headers, raw }: Answer): void {
  if (res.destroyed) return;
  const json = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  res.writeHead(status, { ...(json === undefined ? {} : { 'Content-Type': type }), ...headers });
  res.end(json);
}
