import { Agent, request as httpRequest } from 'node:http';
import { currentInvocation, observeInvocations } from '#lib/local/handler-loader';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { toolProxy } from '#shared/adapters/lambda/tool-proxy-client';
import { gitHubClient, readFile } from '#shared/adapters/providers/github';
import { SmtpMailer } from '#shared/adapters/providers/smtp';
import { AI_READINESS_AGENT } from '#shared/agents/directory';
import { toolProxy as toolProxyFunction } from '#shared/config/topology';
import { newId } from '#shared/domain/ids';
import type { SmtpCredentials } from '#shared/domain/integration';
import type { ToolCallAnswer, ToolProxyRequest } from '#shared/domain/tool-proxy';
import { assertReachableProvider } from '#shared/services/integration-connection';
import { callReadTool, credentialsOf } from '#shared/services/tool-execution';
import { startGitHubApiServer } from '../../test/support/providers/github-api-server';
import { startSlackApiServer } from '../../test/support/providers/slack-api-server';
import { startSmtpTestServer } from '../../test/support/providers/smtp-test-server';
import { clickBody, signedHeaders, SLACK } from '../../test/support/slack-requests';
import { apiClient, waitFor, type ApiClient } from '../api-client';
import { startBenchEngines, startBenchRuntime } from '../bench-runtime';
import type { BenchConfig } from '../config';
import { machineInfo } from '../machine';
import { progress } from '../progress';
import { summarize, type LatencySummary } from '../stats';
import { createTask, taskEnded, workloadOf } from '../workload';

/** The integrations phase's figures (bench/results.json `integrations`). */
export interface IntegrationsReport {
  toolProxy: {
    /** Measured calls per path, after `warmUp` unmeasured ones. */
    calls: number;
    warmUp: number;
    /** Bytes of the file read (`github.read_file`). */
    fileBytes: number;
    /** `gitHubClient` made once, then `readFile` per call, against the loopback GitHub server. */
    direct: LatencySummary;
    /** The proxy's own work called in-process (`callReadTool`): no invoke hop, no handler middleware. */
    inProcess: LatencySummary;
    /** `toolProxy.callTool` through the runtime's Lambda invoke server, as the task worker calls it. */
    proxy: LatencySummary;
    /** The tool proxy handler's own duration inside each proxied call (the runtime's invocation observer). */
    handler: LatencySummary;
    /** Per proxied call, its time minus its handler's: the Lambda client, the invoke hop and the payload's JSON. */
    invokeHop: LatencySummary;
    /** Per round, the proxied call minus the direct call of the same round (the paths interleaved). */
    pairedOverhead: LatencySummary;
    /**
     * The proxy's steps besides the provider call. Its DynamoDB calls are timed inside the proxied
     * calls (the handler's invocation scope), under the same load; the CPU-only steps alone.
     */
    steps: {
      /** The tenant's agents queried (one consistent Query) to find the binding: `agentRepository.findBySlug`. */
      agentConfig: LatencySummary;
      /** The integration's item read (one consistent GetItem). */
      integration: LatencySummary;
      /** `last_used_at` written after the provider answered (one conditional UpdateItem). */
      markUsed: LatencySummary;
      /** The credentials opened: the local AES-GCM cipher here, a KMS Decrypt plus AES-GCM on AWS. Timed alone. */
      decrypt: LatencySummary;
      /** The provider URL's address checked again before use (SSRF guard, a DNS lookup). Timed alone. */
      providerCheck: LatencySummary;
      /** An Octokit client made for the call. Timed alone. */
      clientCreate: LatencySummary;
    };
  };
  slackApproval: {
    clicks: number;
    /** Slack's budget for the answer to an interaction. */
    budgetMs: number;
    /** Clicks whose HTTP answer came within the budget. */
    answeredWithinBudget: number;
    /** Click sent → its HTTP answer received. */
    answer: LatencySummary;
    /** Click sent → the approval's `resolved_at` (checked `approved` through GET /approvals/{id}). */
    approved: LatencySummary;
    /** Clicks whose approval the first GET /approvals/{id} after the answer already read `approved`. */
    approvedAtAnswer: number;
    /** Click sent → the mail's `tool_call.executed` event `created_at` (the approved action run through the loopback SMTP server). */
    actionExecuted: LatencySummary;
    /** The mail's own execution (the event's `duration_ms`: credentials opened, SMTP session, message sent). */
    actionDuration: LatencySummary;
    /** The floor of that: the same mail sent by `SmtpMailer` directly to the same loopback server. */
    mailFloor: LatencySummary;
    /** Click sent → the task's `task.complete` event `created_at`. */
    taskComplete: LatencySummary;
  };
}

const GITHUB_TOKEN = 'ghp_benchToken0123456789abcdefABCDEF';
const BOT_TOKEN = 'xoxb-bench-bot-token-0123456789';
const SIGNING_SECRET = '5b3e0c7a9d1f4e2b8a6c0d9e7f1a2b3c';
const SMTP_USER = 'sales';
const SMTP_PASSWORD = 'bench-smtp-password';
const MAIL_FROM = 'Sales <sales@bench.example>';
const REPOSITORY = 'bench/models';
const FILE_PATH = 'docs/MODEL_CARD.md';
const FILE_BYTES = 4096;
const SLACK_BUDGET_MS = 3_000;
/** Every wait of the phase is bounded: a stuck runtime fails the phase instead of hanging it. */
const CLICK_TIMEOUT_MS = 10_000;
const RESUME_TIMEOUT_MS = 30_000;
const PARK_TIMEOUT_MS = 180_000;
/** Tasks parked on their approval at once while setting up (tasks of one tenant run 100 at a time). */
const PARK_BATCH = 20;

type ToolCallRequest = Extract<ToolProxyRequest, { action: 'call_tool' }>;

const round2 = (value: number) => Math.round(value * 100) / 100;
const ms = (iso: string) => Date.parse(iso);

/** A model card of exactly `bytes` bytes of text, as an audit would read. */
function modelCard(bytes: number): string {
  const paragraph = '## Intended use\n\nCredit scoring of small-business loan applications, reviewed by a person before any decision.\n\n';
  return `# Model card\n\n${paragraph.repeat(Math.ceil(bytes / paragraph.length))}`.slice(0, bytes);
}

/** Times `work` `count` times in sequence after `warmUp` untimed runs; milliseconds, 0.01 ms resolution. */
async function timed(count: number, warmUp: number, work: (index: number) => Promise<unknown>): Promise<number[]> {
  for (let index = 0; index < warmUp; index++) await work(index);
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await work(index);
    samples.push(round2(performance.now() - started));
  }
  return samples;
}

type DynamoMiddleware = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => Promise<unknown>;
type DynamoStack = { add(middleware: DynamoMiddleware, options: { step: 'initialize'; name: string; priority: 'high' }): void; remove(name: string): boolean };
const DYNAMO_TIMER = 'benchIntegrationsDynamoTimer';

/**
 * Times the DynamoDB calls `wanted` says are of interest (decided in the caller's async context),
 * by command, on the one document client the handlers share. `take` returns and clears them.
 */
function timeDynamoCalls(wanted: () => boolean): { take(): Record<string, number[]>; uninstall(): void } {
  let taken: Record<string, number[]> = {};
  const stack = documentClient().middlewareStack as unknown as DynamoStack;
  stack.add(
    (next, context) => async (args) => {
      if (!wanted()) return next(args);
      const started = performance.now();
      try {
        return await next(args);
      } finally {
        (taken[context.commandName ?? 'unknown'] ??= []).push(performance.now() - started);
      }
    },
    { step: 'initialize', name: DYNAMO_TIMER, priority: 'high' },
  );
  return {
    take() {
      const calls = taken;
      taken = {};
      return calls;
    },
    uninstall: () => void stack.remove(DYNAMO_TIMER),
  };
}

/**
 * A signed Slack interaction POSTed as Slack sends it (a form body, no API key), over a kept-alive
 * `node:http` connection like the bench's API client; resolves with the status once the answer is read.
 */
function slackPoster(url: string): (body: string) => Promise<number> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, timeout: CLICK_TIMEOUT_MS });
  return (body) =>
    new Promise((resolve, reject) => {
      const headers = { ...signedHeaders(SIGNING_SECRET, body, 'application/x-www-form-urlencoded'), 'Content-Length': String(Buffer.byteLength(body)) };
      const request = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent, timeout: CLICK_TIMEOUT_MS }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`the Slack click got no answer within ${CLICK_TIMEOUT_MS} ms`)));
      request.on('error', reject);
      request.end(body);
    });
}

/**
 * Integrations: what the tool proxy adds to a read tool call, and how soon a click in Slack
 * resolves an approval and resumes its task. One runtime with its workers; the providers are the
 * loopback servers the e2e tests use, connected as integrations through the API.
 */
export async function run(config: BenchConfig): Promise<IntegrationsReport> {
  const calls = config.quick ? 100 : 400;
  const warmUp = config.quick ? 10 : 30;
  const clicks = config.quick ? 15 : 60;
  const github = await startGitHubApiServer({
    tokens: { [GITHUB_TOKEN]: { login: 'bench-bot', id: 7 } },
    repos: { [REPOSITORY]: { default_branch: 'main', private: true, collaborators: ['bench-bot'], files: new Map([['README.md', '# Models\n'], [FILE_PATH, modelCard(FILE_BYTES)]]) } },
  });
  const slack = await startSlackApiServer({
    tokens: { [BOT_TOKEN]: { team_id: SLACK.team_id, team: SLACK.team, user_id: SLACK.bot_user_id, user: 'gatehouse', bot_id: SLACK.bot_id } },
    channels: { [SLACK.channel]: { name: 'approvals' } },
  });
  const smtp = await startSmtpTestServer({ users: { [SMTP_USER]: SMTP_PASSWORD } });
  const smtpCredentials: SmtpCredentials = { host: smtp.host, port: smtp.port, username: SMTP_USER, password: SMTP_PASSWORD, secure: false };
  const engines = await startBenchEngines();
  const runtime = await startBenchRuntime({ engines, name: 'bench-integrations', workers: true, workerConcurrency: config.workerConcurrency });
  const api = apiClient(runtime.baseUrl, runtime.key);
  try {
    const machine = machineInfo();
    progress(`integrations: ${machine.cpus} cores (${machine.cpuModel}), load average ${machine.loadAverage.map((load) => load.toFixed(1)).join(' ')}`);
    const connect = (body: Record<string, unknown>) => api.call<{ integration_id: string }>('POST', '/integrations', { body }).then((made) => made.integration_id);
    const githubId = await connect({ kind: 'github', name: 'Bench GitHub', credentials: { token: GITHUB_TOKEN }, settings: { api_url: github.url } });
    const slackId = await connect({ kind: 'slack', name: 'Bench Slack', credentials: { bot_token: BOT_TOKEN, signing_secret: SIGNING_SECRET }, settings: { api_url: slack.url, approvals_channel: SLACK.channel, approvers: [SLACK.approver] } });
    const emailId = await connect({ kind: 'email', name: 'Bench mail', credentials: smtpCredentials, settings: { from: MAIL_FROM } });
    for (const agent of ['ai-readiness', 'sales']) await api.call('POST', '/agents/deploy', { body: { agent_slug: agent } });
    await api.call('PATCH', '/agents/ai-readiness/config', { body: { integrations: { github: githubId } } });
    await api.call('PATCH', '/agents/sales/config', { body: { integrations: { email: emailId } } });

    const toolProxyReport = await measureToolProxy(runtime.tenantId, github.url, githubId, calls, warmUp);
    const slackApproval = await measureSlackApprovals(api, `${runtime.baseUrl}/integrations/${slackId}/slack/interactions`, slack.state.messages, new SmtpMailer(smtpCredentials), clicks);
    const report: IntegrationsReport = { toolProxy: toolProxyReport, slackApproval };
    for (const line of summaryLines(report)) progress(`integrations: ${line}`);
    return report;
  } finally {
    await runtime.stop();
    await engines.stop();
    await Promise.all([github.close(), slack.close(), smtp.close()]);
  }
}

/**
 * `github.read_file` through the proxy beside the same provider call made directly and the
 * proxy's work called in-process, interleaved round by round (which goes first rotates) so that
 * all three meet the same background work of the runtime (its stream and queue pollers).
 */
async function measureToolProxy(tenantId: string, githubUrl: string, integrationId: string, calls: number, warmUp: number): Promise<IntegrationsReport['toolProxy']> {
  progress(`integrations: github.read_file of ${FILE_BYTES} B, ${calls} rounds of a direct, an in-process and a proxied call, after ${warmUp} unmeasured rounds`);
  const client = gitHubClient({ token: GITHUB_TOKEN, apiUrl: githubUrl });
  // The worker's request, with the task's canonical agent slug; the task id only labels the call.
  const request: ToolCallRequest = { action: 'call_tool', tenant_id: tenantId, task_id: newId('tsk'), agent: AI_READINESS_AGENT.slug, tool: 'github.read_file', args: { repository: REPOSITORY, path: FILE_PATH } };
  let handlerMs = Number.NaN;
  observeInvocations((invocation) => {
    if (invocation.file === toolProxyFunction.handler) handlerMs = invocation.durationMs;
  });
  const dynamo = timeDynamoCalls(() => currentInvocation() === toolProxyFunction.handler);
  const samples = { direct: [] as number[], inProcess: [] as number[], proxy: [] as number[], handler: [] as number[], invokeHop: [] as number[], pairedOverhead: [] as number[], agentConfig: [] as number[], integration: [] as number[], markUsed: [] as number[] };
  const answered = (answer: ToolCallAnswer, path: string) => {
    if (answer.outcome !== 'succeeded' || answer.result.size !== FILE_BYTES) throw new Error(`the ${path} read answered ${JSON.stringify(answer).slice(0, 300)}`);
  };
  /** Each path once, timed; `first` rotates which path goes first, so no path always follows another. */
  const roundOf = async (first: number) => {
    const took = { direct: 0, inProcess: 0, proxy: 0, handler: 0, dynamo: {} as Record<string, number[]> };
    const paths = [
      async () => {
        const started = performance.now();
        const file = await readFile(client, REPOSITORY, FILE_PATH);
        took.direct = performance.now() - started;
        if (file.size !== FILE_BYTES) throw new Error(`the direct read returned ${file.size} bytes`);
      },
      async () => {
        const started = performance.now();
        const answer = await callReadTool(request);
        took.inProcess = performance.now() - started;
        answered(answer, 'in-process');
      },
      async () => {
        handlerMs = Number.NaN;
        dynamo.take();
        const started = performance.now();
        const answer = await toolProxy.callTool(request);
        took.proxy = performance.now() - started;
        took.handler = handlerMs;
        took.dynamo = dynamo.take();
        answered(answer, 'proxied');
        if (Number.isNaN(handlerMs)) throw new Error('the tool proxy handler was not observed: the call did not go through the invoke server');
      },
    ];
    for (let offset = 0; offset < paths.length; offset++) await paths[(first + offset) % paths.length]();
    return took;
  };
  try {
    for (let index = 0; index < warmUp; index++) await roundOf(index % 3);
    for (let index = 0; index < calls; index++) {
      const took = await roundOf(index % 3);
      samples.direct.push(round2(took.direct));
      samples.inProcess.push(round2(took.inProcess));
      samples.proxy.push(round2(took.proxy));
      samples.handler.push(round2(took.handler));
      samples.invokeHop.push(round2(took.proxy - took.handler));
      samples.pairedOverhead.push(round2(took.proxy - took.direct));
      const { QueryCommand: query = [], GetItemCommand: get = [], UpdateItemCommand: update = [], ...other } = took.dynamo;
      if (query.length !== 1 || get.length !== 1 || update.length !== 1 || Object.keys(other).length > 0) throw new Error(`a proxied call made other DynamoDB calls than expected: ${JSON.stringify(took.dynamo)}`);
      samples.agentConfig.push(round2(query[0]));
      samples.integration.push(round2(get[0]));
      samples.markUsed.push(round2(update[0]));
    }
  } finally {
    observeInvocations(undefined);
    dynamo.uninstall();
  }

  progress(`integrations: the proxy's CPU-only steps, ${calls} times each`);
  const integration = await integrationRepository.get(tenantId, integrationId);
  if (!integration) throw new Error(`integration ${integrationId} is missing`);
  const stepWarmUp = Math.min(warmUp, 10);
  const steps: IntegrationsReport['toolProxy']['steps'] = {
    agentConfig: summarize(samples.agentConfig),
    integration: summarize(samples.integration),
    markUsed: summarize(samples.markUsed),
    decrypt: summarize(await timed(calls, stepWarmUp, () => credentialsOf(integration))),
    providerCheck: summarize(await timed(calls, stepWarmUp, () => assertReachableProvider(githubUrl))),
    clientCreate: summarize(await timed(calls, stepWarmUp, async () => gitHubClient({ token: GITHUB_TOKEN, apiUrl: githubUrl }))),
  };
  return {
    calls,
    warmUp,
    fileBytes: FILE_BYTES,
    direct: summarize(samples.direct),
    inProcess: summarize(samples.inProcess),
    proxy: summarize(samples.proxy),
    handler: summarize(samples.handler),
    invokeHop: summarize(samples.invokeHop),
    pairedOverhead: summarize(samples.pairedOverhead),
    steps,
  };
}

interface ParkedDraft {
  taskId: string;
  approvalId: string;
}

/**
 * Parks `sales.draft_email` tasks on their `mail.send` approval, each posted to the Slack channel
 * before it is clicked (a person clicks a message they see), then clicks Approve on one at a time,
 * waiting for its task to complete before the next click.
 */
async function measureSlackApprovals(api: ApiClient, interactionsUrl: string, posted: readonly { blocks?: unknown[] }[], mailer: SmtpMailer, clicks: number): Promise<IntegrationsReport['slackApproval']> {
  const draft = workloadOf('sales.draft_email');
  progress(`integrations: parking ${clicks + 1} sales.draft_email tasks on their approval, posted to Slack`);
  const parked: ParkedDraft[] = [];
  while (parked.length < clicks + 1) {
    const batch = await Promise.all(Array.from({ length: Math.min(PARK_BATCH, clicks + 1 - parked.length) }, () => createTask(api, draft)));
    for (const taskId of batch) {
      await waitFor(`task ${taskId} parked on its approval`, async () => ((await api.call<{ status: string }>('GET', `/tasks/${taskId}`)).status === 'awaiting_approval' ? true : undefined), PARK_TIMEOUT_MS, 100);
      const { approvals } = await api.call<{ approvals: { approval_id: string; status: string }[] }>('GET', `/approvals?task_id=${taskId}`);
      const approvalId = approvals.find((approval) => approval.status === 'pending')?.approval_id;
      if (!approvalId) throw new Error(`task ${taskId} is awaiting an approval it has not got pending`);
      await waitFor(`approval ${approvalId} posted to Slack`, async () => (posted.some((message) => JSON.stringify(message.blocks ?? []).includes(approvalId)) ? true : undefined), PARK_TIMEOUT_MS, 50);
      parked.push({ taskId, approvalId });
    }
  }

  const click = slackPoster(interactionsUrl);
  /** One approve click, and its task followed to the end; milliseconds from the click sent. */
  const clickOnce = async ({ taskId, approvalId }: ParkedDraft) => {
    const sent = Date.now();
    const answered = await click(clickBody('approve', approvalId));
    const answer = Date.now() - sent;
    if (answered !== 200) throw new Error(`the click on ${approvalId} answered ${answered}`);
    let reads = 0;
    const resolvedAt = await waitFor(`approval ${approvalId} approved`, async () => {
      reads += 1;
      const read = await api.call<{ status: string; resolved_at?: string }>('GET', `/approvals/${approvalId}`);
      if (read.status === 'pending') return undefined;
      if (read.status !== 'approved' || !read.resolved_at) throw new Error(`approval ${approvalId} is ${read.status}`);
      return read.resolved_at;
    }, CLICK_TIMEOUT_MS, 10);
    const completed = await waitFor(`task ${taskId} complete`, async () => {
      const { events } = await api.call<{ events: { type: string; created_at: string }[] }>('GET', `/events?task_id=${taskId}&type=task.complete`);
      return events[0];
    }, RESUME_TIMEOUT_MS, 20);
    const { events: executed } = await api.call<{ events: { created_at: string; data: { tool?: string; outcome?: string; duration_ms?: number } }[] }>('GET', `/events?task_id=${taskId}&type=tool_call.executed`);
    const mail = executed.find((event) => event.data.tool === 'mail.send');
    if (mail?.data.outcome !== 'succeeded') throw new Error(`task ${taskId}'s mail was not sent: ${JSON.stringify(executed).slice(0, 300)}`);
    if ((await taskEnded(api, taskId, RESUME_TIMEOUT_MS)) !== 'complete') throw new Error(`task ${taskId} did not complete`);
    return { answer, approved: ms(resolvedAt) - sent, approvedAtAnswer: reads === 1, executed: ms(mail.created_at) - sent, actionDuration: mail.data.duration_ms ?? Number.NaN, complete: ms(completed.created_at) - sent };
  };

  progress(`integrations: ${clicks} Slack approve clicks, one at a time, each followed to its task's completion`);
  await clickOnce(parked[0]); // warm-up: the callback route, the tool proxy's queue consumer and nodemailer loaded
  const samples = [];
  for (const draftTask of parked.slice(1)) samples.push(await clickOnce(draftTask));
  progress(`integrations: the mail's floor, ${clicks} sent directly to the loopback SMTP server`);
  const mailFloor = await timed(clicks, 1, (index) => mailer.send({ from: MAIL_FROM, to: 'ada@prospect.example', subject: 'Bench floor', body: 'The same SMTP session without the proxy.', idempotencyKey: `apr_benchfloor${index}` }));
  return {
    clicks: samples.length,
    budgetMs: SLACK_BUDGET_MS,
    answeredWithinBudget: samples.filter((sample) => sample.answer < SLACK_BUDGET_MS).length,
    answer: summarize(samples.map((sample) => sample.answer)),
    approved: summarize(samples.map((sample) => sample.approved)),
    approvedAtAnswer: samples.filter((sample) => sample.approvedAtAnswer).length,
    actionExecuted: summarize(samples.map((sample) => sample.executed)),
    actionDuration: summarize(samples.map((sample) => sample.actionDuration)),
    mailFloor: summarize(mailFloor),
    taskComplete: summarize(samples.map((sample) => sample.complete)),
  };
}

/** The figures as progress lines: the generated results section does not render this phase. */
function summaryLines(report: IntegrationsReport): string[] {
  const pair = (summary: LatencySummary) => `p50 ${summary.p50.toFixed(2)} / p99 ${summary.p99.toFixed(2)} ms`;
  const { toolProxy: proxy, slackApproval: slack } = report;
  return [
    `direct ${pair(proxy.direct)}; proxy ${pair(proxy.proxy)}; difference of p50 ${(proxy.proxy.p50 - proxy.direct.p50).toFixed(2)}, of p99 ${(proxy.proxy.p99 - proxy.direct.p99).toFixed(2)} ms; paired ${pair(proxy.pairedOverhead)}`,
    `in-process ${pair(proxy.inProcess)}; proxy handler ${pair(proxy.handler)}; invoke hop ${pair(proxy.invokeHop)}`,
    ...Object.entries(proxy.steps).map(([step, summary]) => `step ${step} ${pair(summary)}`),
    `Slack click answer ${pair(slack.answer)} (${slack.answeredWithinBudget}/${slack.clicks} within ${slack.budgetMs} ms); → approved ${pair(slack.approved)} (read approved at the first GET after the answer: ${slack.approvedAtAnswer}/${slack.clicks}); → mail sent ${pair(slack.actionExecuted)} (sending it ${pair(slack.actionDuration)}, floor ${pair(slack.mailFloor)}); → task complete ${pair(slack.taskComplete)}`,
  ];
}
