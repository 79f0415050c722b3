import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorker, TaskAborted, type Decision, type TaskContext, type TaskHandler, type TaskHandlers, type Worker } from '@gatehouse/worker';
import { systemClock } from '#shared/domain/clock';
import { sweepStuckWork } from '#shared/services/stuck-work-sweeper';
import { checkInvoice, type InvoiceInput } from '../../examples/invoice-checker/check-invoice';
import { handleInvoiceCheck } from '../../examples/invoice-checker/handle-invoice-check';
import { deployCustomAgent } from '../support/custom-agent';
import { apiClient, eventually, startTestRuntime, taskEnded, type TestRuntime } from '../support/local-runtime';
import { startGitHubApiServer } from '../support/providers/github-api-server';

/**
 * The worker SDK against the real protocol: in-process workers (`createWorker`) and worker
 * processes talk HTTP to the local runtime, and the tests look at the outcome through the API a
 * person uses. The invoice checker is deployed under a slug per concern, so that a test's worker
 * only ever sees the tasks that test created.
 */

type Api = ReturnType<typeof apiClient>;

// The example worker process claims with the SDK's default 20 s wait, which its stop lets answer:
// the runtime (in this process) cuts every claim's wait to 2 s, so that it exits in seconds.
process.env.GATEHOUSE_CLAIM_WAIT_SECONDS = '2';

const HEARTBEAT_MS = 200;
const WAIT_SECONDS = 1;
const GITHUB_TOKEN = 'ghp_workerSdkE2eToken0123456789abcdef';

let runtime: TestRuntime;
const workers: Worker[] = [];
const children: ChildProcess[] = [];

/** An SDK worker on the runtime with short leases and beats; stopped after each test. */
async function startWorker(agent: string, apiKey: string, handlers: TaskHandlers): Promise<Worker> {
  const worker = createWorker({ agent, apiKey, baseUrl: runtime.baseUrl, handlers, handleSignals: false, logger: false, leaseSeconds: 10, heartbeatEveryMs: HEARTBEAT_MS, waitSeconds: WAIT_SECONDS, shutdownGraceMs: 1_000 });
  workers.push(worker);
  await worker.start();
  return worker;
}

/**
 * The handler with a pause of a few heartbeats after each progress call. The SDK sends progress with
 * the next heartbeat, so in a handler as quick as the example's most of it would never go out;
 * pacing it makes every step visible as a `task.progress` event, as in a handler slower than a beat.
 */
function paced<Input>(handler: (input: Input, ctx: TaskContext) => Promise<void>): TaskHandler<Input> {
  return (input, ctx) =>
    handler(input, {
      ...ctx,
      async progress(message, fraction) {
        await ctx.progress(message, fraction);
        await delay(3 * HEARTBEAT_MS);
      },
    });
}

async function newTask(admin: Api, agent: string, input: Record<string, unknown>) {
  const created = await admin('POST', '/tasks', { agent, task_type: 'invoice.check', input });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body as { task_id: string; status: string };
}

function statusReached(admin: Api, taskId: string, status: string, timeoutMs = 10_000) {
  return eventually(async () => {
    const { body } = await admin('GET', `/tasks/${taskId}`);
    return body.status === status ? body : undefined;
  }, timeoutMs);
}

async function eventsOf(admin: Api, taskId: string): Promise<{ type: string; data: Record<string, any> }[]> {
  const { body } = await admin('GET', `/events?task_id=${taskId}&limit=100`);
  return body.events;
}

async function artifactsOf(admin: Api, taskId: string): Promise<{ artifact_id: string; type: string; data: Record<string, any> }[]> {
  const { body } = await admin('GET', `/tasks/${taskId}/artifacts`);
  return body.artifacts;
}

const outboxFile = (approvalId: string) => join(process.env.GATEHOUSE_OUTBOX_DIR!, `${approvalId}.eml`);

/** A worker process from the repository root, its output kept for failure messages; killed after each test if still alive. */
function spawnWorkerProcess(command: string, args: string[], env: Record<string, string>) {
  // A group of its own, so that cleanup reaches what it starts in turn (tsx runs the script in a child).
  const child = spawn(command, args, { env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, output: () => output };
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Resolves with how the process ended, or fails after `ms` naming what it printed. */
async function exitWithin(run: ReturnType<typeof spawnWorkerProcess>, ms: number) {
  const timer = new AbortController();
  const timeout = delay(ms, undefined, { signal: timer.signal }).then(() => {
    throw new Error(`the process did not exit within ${ms} ms; its output:\n${run.output()}`);
  });
  try {
    return await Promise.race([run.exited, timeout]);
  } finally {
    timer.abort();
  }
}

describe('the worker SDK end to end, over HTTP on the local runtime', () => {
  let checker: Awaited<ReturnType<typeof deployCustomAgent>>;

  beforeAll(async () => {
    runtime = await startTestRuntime('worker-sdk');
    checker = await deployCustomAgent(runtime.baseUrl, runtime.keys.a, 'invoice-checker');
  });

  afterEach(async () => {
    const stopped = workers.splice(0);
    await Promise.all(stopped.map((worker) => worker.stop()));
    for (const child of children.splice(0)) killGroup(child);
    // A stop abandons the worker's long poll, but the claim goes on on the server until its wait ends
    // and would take (and strand, until its lease runs out) a task the next test creates at once.
    if (stopped.length > 0) await delay(WAIT_SECONDS * 1000 + 500);
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('runs the example handler from claim to complete: progress events, the report, complete', async () => {
    const { admin, agentKey } = await deployCustomAgent(runtime.baseUrl, runtime.keys.a, 'invoice-life');
    const input = { invoice_number: 'INV-100', amount: 150, currency: 'EUR', purchase_order: { number: 'PO-9', amount: 120 } };
    await startWorker('invoice-life', agentKey, { 'invoice.check': paced(handleInvoiceCheck) });

    const task = await newTask(admin, 'invoice-life', input);
    const ended = await taskEnded(admin, task.task_id, 15_000);

    expect(ended).toMatchObject({ status: 'complete', artifacts: [{ type: 'invoice.check_report' }] });
    const [report] = await artifactsOf(admin, task.task_id);
    expect(report.data).toEqual(checkInvoice(input));
    expect(report.data).toMatchObject({ verdict: 'reject', findings: [{ code: 'purchase_order_mismatch', severity: 'error' }] });
    const events = await eventsOf(admin, task.task_id);
    expect(events.map((event) => event.type)).toEqual(['task.created', 'task.started', 'task.progress', 'artifact.emitted', 'task.progress', 'task.complete']);
    expect(events.filter((event) => event.type === 'task.progress').map((event) => event.data)).toMatchObject([
      { message: 'Checking invoice INV-100', progress: 0.1 },
      { message: 'Checked: reject', progress: 1 },
    ]);
  });

  describe('approvals', () => {
    const input = { invoice_number: 'INV-200', amount: 90, currency: 'EUR', purchase_order: { number: 'PO-2', amount: 100 }, supplier_email: 'billing@supplier.example' };
    let mail: Awaited<ReturnType<typeof deployCustomAgent>>;
    /** What each run of the handler saw: its attempt and the decisions it was given. */
    let runs: { attempt: number; decisions: Decision[] }[];

    beforeAll(async () => {
      mail = await deployCustomAgent(runtime.baseUrl, runtime.keys.a, 'invoice-mail');
    });

    async function parkedOnApproval() {
      runs = [];
      const seen: TaskHandler<InvoiceInput> = (taskInput, ctx) => {
        runs.push({ attempt: ctx.attempt, decisions: [...ctx.decisions] });
        return handleInvoiceCheck(taskInput, ctx);
      };
      await startWorker('invoice-mail', mail.agentKey, { 'invoice.check': seen });
      const task = await newTask(mail.admin, 'invoice-mail', input);
      await statusReached(mail.admin, task.task_id, 'awaiting_approval');
      const { body } = await mail.admin('GET', `/approvals?task_id=${task.task_id}`);
      expect(body.approvals).toHaveLength(1);
      return { taskId: task.task_id, approval: body.approvals[0] };
    }

    it('asks before mailing the supplier; once approved (and edited), Gatehouse sends it and the rerun completes with the outcome', async () => {
      const { taskId, approval } = await parkedOnApproval();
      expect(approval).toMatchObject({ status: 'pending', action: { type: 'mail.send', to: 'billing@supplier.example', subject: 'Invoice INV-200: 1 finding' } });
      expect(approval.action.body).toContain('PO-2');

      const resolved = await mail.admin('POST', `/approvals/${approval.approval_id}/resolve`, {
        decision: 'approved',
        comment: 'To their payables desk.',
        modified_action: { type: 'mail.send', to: 'payables@supplier.example', subject: approval.action.subject, body: approval.action.body },
      });
      expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
      const ended = await taskEnded(mail.admin, taskId, 15_000);

      expect(ended.status).toBe('complete');
      await eventually(async () => existsSync(outboxFile(approval.approval_id)) || undefined, 5_000);
      const sent = await simpleParser(await readFile(outboxFile(approval.approval_id)));
      expect(sent.to).toMatchObject({ text: 'payables@supplier.example' });
      expect(sent.subject).toBe('Invoice INV-200: 1 finding');
      expect(runs.map((run) => run.attempt)).toEqual([1, 2]);
      expect(runs[1].decisions).toMatchObject([{ approval_id: approval.approval_id, decision: 'approved', action: { to: 'payables@supplier.example' }, execution: { status: 'executed' } }]);
      const artifacts = await artifactsOf(mail.admin, taskId);
      expect(artifacts.map((artifact) => artifact.type)).toEqual(['invoice.check_report', 'invoice.mail_draft']);
      expect(artifacts[1].data).toMatchObject({ to: 'payables@supplier.example', decision: 'approved', comment: 'To their payables desk.', sent: true });
      // The rerun replayed the approval and the report instead of posting them again.
      expect((await mail.admin('GET', `/approvals?task_id=${taskId}&status=approved`)).body.approvals).toHaveLength(1);
      expect((await mail.admin('GET', `/approvals?task_id=${taskId}`)).body.approvals).toEqual([]);
      const types = (await eventsOf(mail.admin, taskId)).map((event) => event.type);
      expect(types.filter((type) => type === 'approval.requested')).toHaveLength(1);
      expect(types.filter((type) => type === 'artifact.emitted')).toHaveLength(2);
    });

    it('sends nothing when the mail is denied, and completes saying so', async () => {
      const { taskId, approval } = await parkedOnApproval();

      const resolved = await mail.admin('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'denied', comment: 'Ask procurement first.' });
      expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
      const ended = await taskEnded(mail.admin, taskId, 15_000);

      expect(ended.status).toBe('complete');
      expect(runs.map((run) => run.attempt)).toEqual([1, 2]);
      expect(runs[1].decisions).toMatchObject([{ decision: 'denied', comment: 'Ask procurement first.' }]);
      expect(runs[1].decisions[0].execution).toBeUndefined();
      const artifacts = await artifactsOf(mail.admin, taskId);
      expect(artifacts[1]).toMatchObject({ type: 'invoice.mail_draft', data: { to: 'billing@supplier.example', decision: 'denied', sent: false } });
      expect(existsSync(outboxFile(approval.approval_id))).toBe(false);
    });
  });

  it('reads a file through the tool proxy with the GitHub integration bound to the agent', async () => {
    const github = await startGitHubApiServer({
      tokens: { [GITHUB_TOKEN]: { login: 'payables-bot', id: 7 } },
      repos: {
        'acme/invoices': { default_branch: 'main', private: true, collaborators: ['payables-bot'], files: new Map([['2024/INV-300.json', JSON.stringify({ invoice_number: 'INV-300', lines: [{ item: 'Paper', amount: 42 }] })]]) },
      },
    });
    try {
      const { admin, agentKey } = await deployCustomAgent(runtime.baseUrl, runtime.keys.a, 'invoice-tools');
      const connected = await admin('POST', '/integrations', { kind: 'github', name: 'Invoices', credentials: { token: GITHUB_TOKEN }, settings: { api_url: github.url } });
      expect(connected.status, JSON.stringify(connected.body)).toBe(201);
      const bound = await admin('PATCH', '/agents/invoice-tools/config', { integrations: { github: connected.body.integration_id } });
      expect(bound.status, JSON.stringify(bound.body)).toBe(200);
      await startWorker('invoice-tools', agentKey, {
        'invoice.check': async (input: InvoiceInput, ctx) => {
          const file = await ctx.callTool('github.read_file', { repository: 'acme/invoices', path: `2024/${input.invoice_number}.json` });
          await ctx.emitArtifact('invoice.check_report', { source: file.path, invoice: JSON.parse(String(file.content)) });
        },
      });

      const task = await newTask(admin, 'invoice-tools', { invoice_number: 'INV-300', amount: 42 });
      const ended = await taskEnded(admin, task.task_id, 15_000);

      expect(ended.status).toBe('complete');
      const [artifact] = await artifactsOf(admin, task.task_id);
      expect(artifact.data).toEqual({ source: '2024/INV-300.json', invoice: { invoice_number: 'INV-300', lines: [{ item: 'Paper', amount: 42 }] } });
      const calls = (await eventsOf(admin, task.task_id)).filter((event) => event.type === 'tool_call.executed');
      expect(calls.map((call) => call.data)).toMatchObject([{ tool: 'github.read_file', integration_id: connected.body.integration_id, outcome: 'succeeded' }]);
      expect(github.state.requests.some((request) => request.path.includes('/repos/acme/invoices/contents/2024') && request.authorization?.includes(GITHUB_TOKEN))).toBe(true);
    } finally {
      await github.close();
    }
  });

  it("aborts a slow handler's signal with 'cancelled' when a person cancels the task, and reports nothing after", async () => {
    const { admin, agentKey } = await deployCustomAgent(runtime.baseUrl, runtime.keys.a, 'invoice-cancel');
    const seen: { reason?: unknown; lateCall?: unknown } = {};
    await startWorker('invoice-cancel', agentKey, {
      'invoice.check': async (_input, ctx) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 15_000);
          ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
        seen.reason = ctx.signal.reason;
        seen.lateCall = await ctx.emitArtifact('invoice.check_report', {}).catch((error: unknown) => error);
      },
    });
    const task = await newTask(admin, 'invoice-cancel', { invoice_number: 'INV-400', amount: 5 });
    await statusReached(admin, task.task_id, 'running');

    expect((await admin('DELETE', `/tasks/${task.task_id}`)).status).toBe(200);

    await eventually(async () => seen.lateCall, 5_000);
    expect(seen.reason).toBe('cancelled');
    expect(seen.lateCall).toBeInstanceOf(TaskAborted);
    const ended = await taskEnded(admin, task.task_id, 5_000);
    expect(ended).toMatchObject({ status: 'cancelled', artifacts: [] });
    const types = (await eventsOf(admin, task.task_id)).map((event) => event.type);
    expect(types).toContain('task.cancelled');
    expect(types).not.toContain('task.complete');
    expect(types).not.toContain('task.failed');
  });

  it('gives the task of a SIGKILLed worker process to another worker once its lease runs out, replaying its artifact', async () => {
    const { admin, agentKey } = await deployCustomAgent(runtime.baseUrl, runtime.keys.a, 'invoice-killed');
    const task = await newTask(admin, 'invoice-killed', { invoice_number: 'INV-500', amount: 12 });
    const killed = spawnWorkerProcess(process.execPath, ['--import', 'tsx', 'test/fixtures/workers/hanging-worker.ts'], { GATEHOUSE_URL: runtime.baseUrl, GATEHOUSE_AGENT_KEY: agentKey, GATEHOUSE_AGENT: 'invoice-killed' });
    const before = await eventually(async () => {
      if (killed.child.exitCode !== null) throw new Error(`the worker process exited early:\n${killed.output()}`);
      const { body } = await admin('GET', `/tasks/${task.task_id}`);
      return body.status === 'running' && body.artifacts.length === 1 ? body : undefined;
    }, 15_000);

    process.kill(killed.child.pid!, 'SIGKILL');
    expect(await exitWithin(killed, 5_000)).toEqual({ code: null, signal: 'SIGKILL' });
    // The sweeper as it will run a minute from now, when the dead worker's lease has run out.
    await sweepStuckWork({ clock: { now: () => new Date(systemClock.now().getTime() + 61_000) } });
    const rerun: { attempt?: number; artifactId?: string } = {};
    await startWorker('invoice-killed', agentKey, {
      'invoice.check': async (_input, ctx) => {
        rerun.attempt = ctx.attempt;
        rerun.artifactId = (await ctx.emitArtifact('invoice.check_report', { checked_by: 'the worker that takes over' })).artifact_id;
      },
    });
    const ended = await taskEnded(admin, task.task_id, 10_000);

    expect(ended.status).toBe('complete');
    expect(rerun).toEqual({ attempt: 2, artifactId: before.artifacts[0].artifact_id });
    const artifacts = await artifactsOf(admin, task.task_id);
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0].data).toEqual({ checked_by: 'the worker that is killed', attempt: 1 });
    const events = await eventsOf(admin, task.task_id);
    expect(events.filter((event) => event.type === 'task.requeued').map((event) => event.data)).toMatchObject([{ reason: 'lease_expired' }]);
    expect(events.filter((event) => event.type === 'artifact.emitted')).toHaveLength(1);
  });

  it("keeps tenants apart: B sees nothing of A's agent, and A's worker never gets B's task", async () => {
    const b = apiClient(runtime.baseUrl, runtime.keys.b);
    expect((await b('GET', '/agents/invoice-checker')).status).toBe(404);
    expect((await b('GET', `/agents/${checker.agentId}`)).status).toBe(404);
    const claimedByA: string[] = [];
    await startWorker('invoice-checker', checker.agentKey, {
      'invoice.check': async (_input, ctx) => {
        claimedByA.push(ctx.taskId);
      },
    });
    const ofB = await deployCustomAgent(runtime.baseUrl, runtime.keys.b, 'invoice-checker');
    const task = await newTask(ofB.admin, 'invoice-checker', { invoice_number: 'INV-600', amount: 1 });

    // Longer than a claim's wait: A's worker has polled its queue, with B's task queued, more than once.
    await delay(2_500);
    expect(claimedByA).toEqual([]);
    expect((await ofB.admin('GET', `/tasks/${task.task_id}`)).body.status).toBe('queued');
    const byA = apiClient(runtime.baseUrl, checker.agentKey);
    const lease_id = 'lse_01J9Z8Q4M6V1T2W3X4Y5Z6A7B8';
    const calls: Record<string, object> = {
      heartbeat: { lease_id },
      artifacts: { lease_id, type: 'invoice.check_report', data: {} },
      approvals: { lease_id, title: 'Pay', description: 'Pay it.', action: { type: 'invoice.pay' } },
      'tool-calls': { lease_id, tool: 'github.read_file', args: { repository: 'acme/invoices', path: 'x.json' } },
      complete: { lease_id },
      fail: { lease_id, error: { code: 'not_mine', message: 'Not my task.' } },
      release: { lease_id },
    };
    for (const [route, body] of Object.entries(calls)) {
      const answer = await byA('POST', `/tasks/${task.task_id}/${route}`, body);
      expect({ route, status: answer.status }).toEqual({ route, status: 404 });
    }

    // The same task is claimable by B's own worker: A's worker saw nothing because it was not A's.
    await startWorker('invoice-checker', ofB.agentKey, { 'invoice.check': async () => {} });
    expect((await taskEnded(ofB.admin, task.task_id, 10_000)).status).toBe('complete');
    expect(claimedByA).toEqual([]);
  });

  it('runs the example worker as a process: it completes an invoice task, and exits 0 on SIGTERM', async () => {
    // The tsx that `npx tsx` runs, without npx, which does not pass SIGTERM on to what it started.
    const run = spawnWorkerProcess('node_modules/.bin/tsx', ['examples/invoice-checker/worker.ts'], { GATEHOUSE_URL: runtime.baseUrl, GATEHOUSE_AGENT_KEY: checker.agentKey });
    const input = { invoice_number: 'INV-700', amount: 40, currency: 'GBP', purchase_order: { number: 'PO-70', amount: 40 } };

    const task = await newTask(checker.admin, 'invoice-checker', input);
    const ended = await taskEnded(checker.admin, task.task_id, 15_000).catch((error: Error) => {
      throw new Error(`${error.message}; the worker printed:\n${run.output()}`);
    });

    expect(ended.status).toBe('complete');
    const [report] = await artifactsOf(checker.admin, task.task_id);
    expect(report).toMatchObject({ type: 'invoice.check_report', data: { invoice_number: 'INV-700', verdict: 'pass', findings: [] } });
    run.child.kill('SIGTERM');
    expect(await exitWithin(run, 10_000)).toEqual({ code: 0, signal: null });
    expect(run.output()).toContain('worker stopped');
  });
});
