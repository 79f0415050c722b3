import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Action, Claim, Decision, JsonObject, Task } from '../../../sdk/typescript/src/types.ts';

/**
 * A stand-in for Gatehouse's worker protocol on 127.0.0.1, for the SDK's own tests: a task queue
 * with held claims, leases that end as the protocol says, idempotent POSTs, and scripted failures.
 * Every request is recorded, so tests assert what the worker sent and in which order.
 */

export type Route = 'claims' | 'heartbeat' | 'artifacts' | 'approvals' | 'tool-calls' | 'complete' | 'fail' | 'release';

export interface RecordedRequest {
  route: Route;
  taskId?: string;
  body: Record<string, unknown>;
  idempotencyKey?: string;
  at: number;
}

/** An answer to give instead of the protocol's; with `afterProcessing`, the request takes effect first (its answer "lost"). */
export interface Scripted {
  status: number;
  code?: string;
  headers?: Record<string, string>;
  afterProcessing?: boolean;
}

interface TaskRecord {
  task: Task;
  decisions: Decision[];
  attempts: number;
  leaseId?: string;
  cancelRequested: boolean;
  pendingApproval?: { approval_id: string; action: Action };
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const API_KEY = 'gh_test_agent_key';
const AGENT = 'invoice-checker';
const NOW = '2026-01-01T00:00:00.000Z';

export class FakeGatehouse {
  readonly requests: RecordedRequest[] = [];
  /** Read tools' answers by tool name; unknown tools succeed with their arguments echoed. */
  readonly tools = new Map<string, (args: JsonObject) => { outcome: 'succeeded' | 'failed'; result?: JsonObject; error?: { code: string; message: string } }>();
  readonly #server = createServer((req, res) => {
    this.#handle(req, res).catch((error: unknown) => send(res, problem(500, 'fake_broke', String(error))));
  });
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #queue: string[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #scripts = new Map<Route, Scripted[]>();
  readonly #idempotent = new Map<string, { request: string; answer: Answer }>();
  #ids = 0;

  static async start(): Promise<FakeGatehouse> {
    const fake = new FakeGatehouse();
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    for (const wake of this.#waiters) wake();
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  /** Queues a task of the agent and returns its id. */
  enqueue(taskType: string, input: JsonObject = {}): string {
    const taskId = `tsk_${++this.#ids}`;
    const task: Task = {
      task_id: taskId,
      agent: AGENT,
      agent_id: 'agt_1',
      task_type: taskType,
      input,
      status: 'queued',
      priority: 'normal',
      artifacts: [],
      created_at: NOW,
      trigger: { type: 'api' },
      tenant_id: 'tenant_1',
    };
    this.#tasks.set(taskId, { task, decisions: [], attempts: 0, cancelRequested: false });
    this.#makeClaimable(taskId);
    return taskId;
  }

  /** The next requests to `route` get these answers, in order, before the protocol's own. */
  script(route: Route, ...answers: Scripted[]): void {
    this.#scripts.set(route, [...(this.#scripts.get(route) ?? []), ...answers]);
  }

  /** A person cancels the task: it is cancelled at once, and the next heartbeat says so. */
  cancel(taskId: string): void {
    const record = this.#record(taskId);
    record.task.status = 'cancelled';
    record.cancelRequested = true;
  }

  /** The lease runs out on the server (the task is not queued again, so it stays out of the way). */
  loseLease(taskId: string): void {
    this.#record(taskId).leaseId = undefined;
  }

  /** A person decides the pending approval; the task can be claimed again, carrying the decision. */
  decide(taskId: string, decision: 'approved' | 'denied', extra: Partial<Decision> = {}): void {
    const record = this.#record(taskId);
    const pending = record.pendingApproval;
    if (!pending) throw new Error(`${taskId} has no pending approval`);
    record.decisions.push({ approval_id: pending.approval_id, decision, action: pending.action, resolution: 'resolved', ...extra });
    record.pendingApproval = undefined;
    this.#makeClaimable(taskId);
  }

  task(taskId: string): Task {
    return this.#record(taskId).task;
  }

  /** What the worker sent, optionally to one route or about one task. */
  sent(route?: Route, taskId?: string): RecordedRequest[] {
    return this.requests.filter((request) => (!route || request.route === route) && (!taskId || request.taskId === taskId));
  }

  #record(taskId: string): TaskRecord {
    const record = this.#tasks.get(taskId);
    if (!record) throw new Error(`no task ${taskId}`);
    return record;
  }

  #makeClaimable(taskId: string): void {
    this.#record(taskId).task.status = 'queued';
    this.#queue.push(taskId);
    for (const wake of this.#waiters) wake();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const match = /^\/v1\/(?:agents\/[^/]+\/(claims)|tasks\/([^/]+)\/(heartbeat|artifacts|approvals|tool-calls|complete|fail|release))$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return send(res, problem(404, 'not_found', `${req.method} ${req.url}`));
    if (req.headers.authorization !== `Bearer ${API_KEY}`) return send(res, problem(401, 'unauthorized', 'a valid agent key is required'));
    const route = (match[1] ?? match[3]) as Route;
    const taskId = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
    const body = JSON.parse(text || '{}') as Record<string, unknown>;
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ route, taskId, body, idempotencyKey, at: Date.now() });

    const scripted = this.#scripts.get(route)?.shift();
    if (scripted && !scripted.afterProcessing) return send(res, scriptedAnswer(scripted));
    const answer = await this.#idempotently(idempotencyKey, `${req.url}\n${text}`, () => this.#answer(route, taskId, body, req));
    send(res, scripted ? scriptedAnswer(scripted) : answer);
  }

  /** As Gatehouse does, per tenant: a repeated key with the same request gets the first answer and changes nothing. */
  async #idempotently(key: string | undefined, request: string, act: () => Promise<Answer>): Promise<Answer> {
    if (!key) return act();
    const seen = this.#idempotent.get(key);
    if (seen) return seen.request === request ? seen.answer : problem(409, 'idempotency_key_reused', 'the key was used for another request');
    const answer = await act();
    if (answer.status < 500) this.#idempotent.set(key, { request, answer });
    return answer;
  }

  async #answer(route: Route, taskId: string | undefined, body: Record<string, unknown>, req: IncomingMessage): Promise<Answer> {
    if (route === 'claims') return this.#claim(Number(body.wait_seconds ?? 20), Number(body.lease_seconds ?? 60), req);
    const record = this.#tasks.get(taskId as string);
    if (!record) return problem(404, 'task_not_found', `no task ${taskId}`);
    // A cancelled task keeps its lease only long enough for a heartbeat to hear about the cancel.
    const held = record.leaseId !== undefined && record.leaseId === body.lease_id && (!record.cancelRequested || route === 'heartbeat');
    if (!held) return problem(409, 'lease_lost', 'the lease is no longer yours');
    const { task } = record;
    switch (route) {
      case 'heartbeat':
        if (record.cancelRequested) record.leaseId = undefined;
        return { status: 200, body: { lease_expires_at: NOW, cancel_requested: record.cancelRequested } };
      case 'artifacts': {
        const artifact = { artifact_id: `art_${++this.#ids}`, task_id: task.task_id, type: String(body.type), created_at: NOW, data: body.data };
        task.artifacts.push({ artifact_id: artifact.artifact_id, type: artifact.type, created_at: NOW });
        return { status: 201, body: artifact };
      }
      case 'approvals': {
        const approval = { approval_id: `apr_${++this.#ids}`, task_id: task.task_id, status: 'pending', title: body.title, description: body.description, action: body.action, expires_at: NOW, created_at: NOW };
        record.pendingApproval = { approval_id: approval.approval_id, action: body.action as Action };
        record.leaseId = undefined;
        task.status = 'awaiting_approval';
        return { status: 201, body: approval };
      }
      case 'tool-calls': {
        const tool = String(body.tool);
        const outcome = this.tools.get(tool)?.(body.args as JsonObject) ?? { outcome: 'succeeded', result: { tool, args: body.args } };
        return { status: 200, body: { tool_call_id: `tc_${++this.#ids}`, tool, integration_id: 'int_1', duration_ms: 1, ...outcome } };
      }
      case 'complete':
      case 'fail':
      case 'release':
        record.leaseId = undefined;
        if (route === 'release') this.#makeClaimable(task.task_id);
        else task.status = route === 'complete' ? 'complete' : 'failed';
        if (route === 'fail') task.error = body.error as Task['error'];
        return { status: 200, body: task };
    }
  }

  /** Holds the claim until a task is queued, the wait passes or the worker hangs up. */
  async #claim(waitSeconds: number, leaseSeconds: number, req: IncomingMessage): Promise<Answer> {
    const deadline = Date.now() + waitSeconds * 1000;
    while (this.#queue.length === 0 && Date.now() < deadline && !req.socket.destroyed) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          req.socket.off('close', wake);
          resolve();
        };
        const timer = setTimeout(wake, deadline - Date.now());
        this.#waiters.add(wake);
        req.socket.once('close', wake);
      });
    }
    const taskId = req.socket.destroyed ? undefined : this.#queue.shift();
    if (!taskId) return { status: 204 };
    const record = this.#record(taskId);
    record.attempts += 1;
    record.leaseId = `lse_${++this.#ids}`;
    record.task.status = 'running';
    record.task.started_at = NOW;
    const claim: Claim = {
      task: structuredClone(record.task),
      lease_id: record.leaseId,
      lease_expires_at: new Date(Date.now() + leaseSeconds * 1000).toISOString(),
      attempt: record.attempts,
      decisions: structuredClone(record.decisions),
    };
    return { status: 200, body: claim };
  }
}

function problem(status: number, code: string, detail: string, headers?: Record<string, string>): Answer {
  return { status, body: { type: `https://gatehouse.dev/problems/${code}`, title: code, status, detail, code }, headers };
}

function scriptedAnswer({ status, code, headers }: Scripted): Answer {
  return status >= 400 ? problem(status, code ?? 'scripted', 'a scripted answer', headers) : { status, headers };
}

function send(res: ServerResponse, { status, body, headers }: Answer): void {
  if (res.destroyed) return;
  const json = body === undefined ? undefined : JSON.stringify(body);
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  res.writeHead(status, { ...(json === undefined ? {} : { 'Content-Type': type }), ...headers });
  res.end(json);
}
