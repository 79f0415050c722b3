import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureJsonOutput } from '../support/captured-output';
import { apiClient, eventually, startTestRuntime, taskEnded, type TestRuntime } from '../support/local-runtime';
import { startGitHubApiServer } from '../support/providers/github-api-server';
import { startSlackApiServer } from '../support/providers/slack-api-server';
import { startSmtpTestServer } from '../support/providers/smtp-test-server';
import { clickBody, editSubmissionBody, messageEventBody, signedHeaders, SLACK } from '../support/slack-requests';

// Every log line of the run is kept (and grepped for secrets at the end): on before any logger exists.
vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
});

const GITHUB_TOKEN = 'ghp_e2eSecretToken0123456789abcdef';
const BOT_TOKEN = 'xoxb-e2e-secret-bot-token-0123456789';
const SIGNING_SECRET = '8f742231b10e8888abcd99aa00bb11cc';
const SMTP_PASSWORD = 'smtp-e2e-secret-password-42';
const SECRETS = [GITHUB_TOKEN, BOT_TOKEN, SIGNING_SECRET, SMTP_PASSWORD];

const draftInput = {
  lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' },
  product: { name: 'Gatehouse', value_proposition: 'Keeps a human in the loop for every agent action.' },
  tone: 'concise',
};

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
let github: Awaited<ReturnType<typeof startGitHubApiServer>>;
let slack: Awaited<ReturnType<typeof startSlackApiServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
const output = captureJsonOutput();
const ids: { github?: string; slack?: string; email?: string } = {};

/** POSTs a signed Slack request to one of the integration's callback routes. */
async function slackPost(endpoint: 'interactions' | 'events', body: string, headers: Record<string, string> = {}) {
  const contentType = endpoint === 'interactions' ? 'application/x-www-form-urlencoded' : 'application/json';
  const response = await fetch(`${runtime.baseUrl}/integrations/${ids.slack}/slack/${endpoint}`, { method: 'POST', headers: { ...signedHeaders(SIGNING_SECRET, body, contentType), ...headers }, body, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as any) : undefined };
}

async function parkedDraft() {
  const { body: task } = await a('POST', '/tasks', { agent: 'sales', task_type: 'sales.draft_email', input: draftInput });
  await eventually(async () => ((await a('GET', `/tasks/${task.task_id}`)).body.status === 'awaiting_approval' ? true : undefined));
  const { body } = await a('GET', `/approvals?task_id=${task.task_id}`);
  return { taskId: task.task_id as string, approval: body.approvals[0] };
}

/** The approval's message in the channel, once the tool proxy posted it. */
function postedMessage(approvalId: string) {
  return eventually(async () => slack.state.messages.find((message) => message.channel === SLACK.channel && JSON.stringify(message.blocks ?? []).includes(approvalId)));
}

describe('integrations, the tool proxy and Slack end to end', () => {
  beforeAll(async () => {
    github = await startGitHubApiServer({
      tokens: { [GITHUB_TOKEN]: { login: 'acme-bot', id: 42 } },
      repos: {
        'acme/models': {
          default_branch: 'main',
          private: true,
          collaborators: ['acme-bot'],
          files: new Map([
            ['README.md', '# Models\n\nOur credit scoring model.\n'],
            ['MODEL_CARD.md', '# Model card\n\n## Intended use\n\nCredit scoring.\n\n## Limitations\n\nNot for hiring.\n'],
            ['package.json', JSON.stringify({ dependencies: { openai: '^4.0.0' } })],
          ]),
        },
      },
    });
    slack = await startSlackApiServer({
      tokens: { [BOT_TOKEN]: { team_id: SLACK.team_id, team: SLACK.team, user_id: SLACK.bot_user_id, user: 'gatehouse', bot_id: SLACK.bot_id } },
      channels: { [SLACK.channel]: { name: 'approvals' }, [SLACK.chatChannel]: { name: 'requests' } },
    });
    smtp = await startSmtpTestServer({ users: { sales: SMTP_PASSWORD } });
    runtime = await startTestRuntime('integrations');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    await a('POST', '/agents/deploy', { agent_slug: 'sales' });
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
    await Promise.all([github?.close(), slack?.close(), smtp?.close()]);
    output.restore();
  });

  it('connects each provider with its credentials checked, never returned, and refuses bad ones', async () => {
    const bad = await a('POST', '/integrations', { kind: 'github', name: 'Wrong', credentials: { token: 'ghp_not_a_real_one' }, settings: { api_url: github.url } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'integration_credentials_invalid', errors: [{ path: 'body.credentials' }] });
    expect((await a('GET', '/integrations')).body.integrations).toEqual([]);

    const connected = await a('POST', '/integrations', { kind: 'github', name: 'Acme GitHub', credentials: { token: GITHUB_TOKEN }, settings: { api_url: github.url } });
    expect(connected.status).toBe(201);
    expect(connected.body).toMatchObject({ kind: 'github', status: 'active', account: { login: 'acme-bot' }, last_used_at: null });
    expect(connected.body.integration_id).toMatch(/^int_/);
    ids.github = connected.body.integration_id;

    const slackConnected = await a('POST', '/integrations', {
      kind: 'slack',
      name: 'Acme Slack',
      credentials: { bot_token: BOT_TOKEN, signing_secret: SIGNING_SECRET },
      settings: { api_url: slack.url, approvals_channel: SLACK.channel, approvers: [SLACK.approver] },
    });
    expect(slackConnected.status).toBe(201);
    expect(slackConnected.body.account).toMatchObject({ team_id: SLACK.team_id, bot_user_id: SLACK.bot_user_id });
    ids.slack = slackConnected.body.integration_id;

    const badMail = await a('POST', '/integrations', { kind: 'email', name: 'Wrong mail', credentials: { host: '127.0.0.1', port: smtp.port, username: 'sales', password: 'nope', secure: false }, settings: { from: 'Sales <sales@acme.example>' } });
    expect(badMail.body.code).toBe('integration_credentials_invalid');
    const mail = await a('POST', '/integrations', { kind: 'email', name: 'Acme mail', credentials: { host: '127.0.0.1', port: smtp.port, username: 'sales', password: SMTP_PASSWORD, secure: false }, settings: { from: 'Sales <sales@acme.example>' } });
    expect(mail.status).toBe(201);
    ids.email = mail.body.integration_id;

    const listed = await a('GET', '/integrations');
    expect(listed.body.integrations.map((integration: any) => integration.integration_id)).toEqual([ids.email, ids.slack, ids.github]);
    expect(JSON.stringify(listed.body)).not.toMatch(new RegExp(SECRETS.join('|')));
    expect((await a('GET', '/integrations?kind=slack')).body.integrations).toHaveLength(1);
    expect((await b('GET', `/integrations/${ids.github}`)).body.code).toBe('integration_not_found');
    expect((await b('PATCH', `/integrations/${ids.github}`, { name: 'Mine' })).status).toBe(404);
    expect((await b('DELETE', `/integrations/${ids.github}`)).status).toBe(404);
    expect((await b('POST', `/integrations/${ids.github}/test`)).status).toBe(404);
    expect((await b('PATCH', '/agents/ai-readiness/config', { integrations: { github: ids.github } })).status).toBe(404);
    expect((await a('POST', `/integrations/${ids.github}/test`)).body).toEqual({ ok: true, account: expect.objectContaining({ login: 'acme-bot' }) });
  });

  it('reads the repository through the tool proxy in an audit, recording each call without its content', async () => {
    expect((await a('PATCH', '/agents/ai-readiness/config', { integrations: { github: ids.slack } })).status).toBe(400);
    const bound = await a('PATCH', '/agents/ai-readiness/config', { integrations: { github: ids.github } });
    expect(bound.body.config.integrations).toEqual({ github: ids.github });
    const { body: task } = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full', repository: 'acme/models' } });
    const ended = await taskEnded(a, task.task_id);
    expect(ended.status).toBe('complete');
    const { body: events } = await a('GET', `/events?task_id=${task.task_id}&limit=100`);
    const calls = events.events.filter((event: any) => event.type === 'tool_call.executed');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls[0].data).toMatchObject({ tool: 'github.list_files', integration_id: ids.github, outcome: 'succeeded', duration_ms: expect.any(Number) });
    expect(JSON.stringify(calls)).not.toContain('Credit scoring');
    const { body: artifacts } = await a('GET', `/tasks/${task.task_id}/artifacts`);
    const report = artifacts.artifacts.find((artifact: any) => artifact.type === 'ai_readiness.audit_report');
    expect(report.data.repository_evidence.files_read.map((file: any) => file.path)).toContain('MODEL_CARD.md');
    expect((await a('GET', `/integrations/${ids.github}`)).body.last_used_at).not.toBeNull();
  });

  it('fails the task integration_revoked when the provider refuses the token mid-task, and revokes the integration', async () => {
    github.state.tokens.delete(GITHUB_TOKEN);
    const { body: task } = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick', repository: 'acme/models' } });
    const ended = await taskEnded(a, task.task_id);
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'integration_revoked' } });
    const integration = (await a('GET', `/integrations/${ids.github}`)).body;
    expect(integration).toMatchObject({ status: 'revoked', revoked_reason: expect.stringContaining('401') });
    const { body: events } = await a('GET', '/events?type=integration.revoked');
    expect(events.events[0].data).toMatchObject({ integration_id: ids.github, kind: 'github' });
    expect((await a('POST', `/integrations/${ids.github}/test`)).body).toMatchObject({ ok: false, status: 'revoked' });
    // New credentials bring it back.
    github.state.tokens.set(GITHUB_TOKEN, { login: 'acme-bot', id: 42 });
    const replaced = await a('PATCH', `/integrations/${ids.github}`, { credentials: { token: GITHUB_TOKEN } });
    expect(replaced.body.status).toBe('active');
    expect(replaced.body.revoked_at).toBeUndefined();
  });

  it('posts an approval to Slack, refuses forged, stale and outsiders\' clicks, and resolves on an approver\'s click', async () => {
    await a('PATCH', '/agents/sales/config', { integrations: { email: ids.email } });
    const { taskId, approval } = await parkedDraft();
    const posted = await postedMessage(approval.approval_id);
    expect(JSON.stringify(posted.blocks)).toContain('"action_id":"approve"');

    const body = clickBody('approve', approval.approval_id);
    const forged = await fetch(`${runtime.baseUrl}/integrations/${ids.slack}/slack/interactions`, { method: 'POST', headers: signedHeaders('0000000000000000deadbeefdeadbeef', body, 'application/x-www-form-urlencoded'), body });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as any).code).toBe('unauthorized');
    const stale = await fetch(`${runtime.baseUrl}/integrations/${ids.slack}/slack/interactions`, { method: 'POST', headers: signedHeaders(SIGNING_SECRET, body, 'application/x-www-form-urlencoded', Math.floor(Date.now() / 1000) - 301), body });
    expect(stale.status).toBe(401);
    expect((await fetch(`${runtime.baseUrl}/integrations/int_00000000000000000000000000/slack/interactions`, { method: 'POST', headers: signedHeaders(SIGNING_SECRET, body, 'application/x-www-form-urlencoded'), body })).status).toBe(404);

    const outsider = await slackPost('interactions', clickBody('approve', approval.approval_id, SLACK.outsider));
    expect(outsider.status).toBe(200);
    expect(slack.state.ephemerals.at(-1)).toMatchObject({ user: SLACK.outsider, text: expect.stringContaining('not allowed') });
    expect((await a('GET', `/approvals/${approval.approval_id}`)).body.status).toBe('pending');

    const started = Date.now();
    const click = await slackPost('interactions', body);
    expect(click.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    const resolved = (await a('GET', `/approvals/${approval.approval_id}`)).body;
    expect(resolved).toMatchObject({ status: 'approved', resolved_by: { type: 'chat', id: SLACK.approver, integration_id: ids.slack } });
    expect((await taskEnded(a, taskId)).status).toBe('complete');
    const sent = await eventually(async () => smtp.state.messages.find((message) => message.to.includes('ada@prospect.example')));
    expect(sent.authUser).toBe('sales');
    const updated = await eventually(async () => slack.state.updates.find((update) => update.ts === posted.ts && JSON.stringify(update.blocks ?? []).includes('Approved')));
    expect(JSON.stringify(updated.blocks)).not.toContain('"action_id":"approve"');
  });

  it('sends the body a person edited in the Slack modal', async () => {
    const { taskId, approval } = await parkedDraft();
    await postedMessage(approval.approval_id);
    expect((await slackPost('interactions', clickBody('edit', approval.approval_id))).status).toBe(200);
    expect(slack.state.views.at(-1)?.view.private_metadata).toBe(approval.approval_id);
    const invalid = await slackPost('interactions', editSubmissionBody(approval, { to: 'not an address', subject: 'Hi', body: 'Edited' }));
    expect(invalid.json).toMatchObject({ response_action: 'errors', errors: { to: expect.any(String) } });
    const submitted = await slackPost('interactions', editSubmissionBody(approval, { to: 'ada@prospect.example', subject: 'A shorter hello', body: 'Edited in Slack: hello Ada.' }));
    expect(submitted.status).toBe(200);
    expect((await taskEnded(a, taskId)).status).toBe('complete');
    const sent = await eventually(async () => smtp.state.messages.find((message) => message.raw.includes('A shorter hello')));
    const parsed = await simpleParser(sent.raw);
    expect(parsed.text?.trim()).toBe('Edited in Slack: hello Ada.');
    expect((await a('GET', `/approvals/${approval.approval_id}`)).body.original_action.subject).not.toBe('A shorter hello');
  });

  it('updates the Slack message when the approval is decided through the API', async () => {
    const { approval } = await parkedDraft();
    const posted = await postedMessage(approval.approval_id);
    await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'denied', comment: 'not now' });
    await eventually(async () => slack.state.updates.find((update) => update.ts === posted.ts && JSON.stringify(update.blocks ?? []).includes('Denied')));
  });

  it('starts a task from a chat message matching a trigger, once however often Slack retries, and replies in its thread', async () => {
    const trigger = await a('POST', '/triggers', {
      name: 'Audit on request',
      source: { type: 'chat', integration_id: ids.slack, channel: SLACK.chatChannel, pattern: '^audit (\\w+)' },
      task: { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } },
    });
    expect(trigger.status).toBe(201);
    expect((await a('POST', `/triggers/${trigger.body.trigger_id}/fire`)).body.code).toBe('trigger_not_fireable');
    const verification = await slackPost('events', JSON.stringify({ token: 'x', challenge: 'c-123', type: 'url_verification' }));
    expect(verification.json).toEqual({ challenge: 'c-123' });

    expect((await slackPost('events', messageEventBody('hello there', '1732700100.000200'))).status).toBe(200);
    const body = messageEventBody('audit please', '1732700101.000300');
    expect((await slackPost('events', body)).status).toBe(200);
    expect((await slackPost('events', body, { 'X-Slack-Retry-Num': '1', 'X-Slack-Retry-Reason': 'http_timeout' })).status).toBe(200);
    const tasks = await eventually(async () => {
      const { body: listed } = await a('GET', `/tasks?trigger_id=${trigger.body.trigger_id}`);
      return listed.tasks.length > 0 ? listed.tasks : undefined;
    });
    expect(tasks).toHaveLength(1);
    expect(tasks[0].trigger).toMatchObject({ type: 'chat', channel: SLACK.chatChannel, ts: '1732700101.000300' });
    await taskEnded(a, tasks[0].task_id);
    const reply = await eventually(async () => slack.state.messages.find((message) => message.thread_ts === '1732700101.000300'));
    expect(reply.text).toContain(tasks[0].task_id);
    expect((await a('GET', `/triggers/${trigger.body.trigger_id}/runs`)).body.runs).toHaveLength(1);
  });

  it('starts a task from a mail sent to a mail trigger\'s address, and ignores automatic replies', async () => {
    const trigger = await a('POST', '/triggers', {
      name: 'Questionnaires by mail',
      source: { type: 'mail', match: { subject: 'audit' } },
      task: { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } },
    });
    expect(trigger.status).toBe(201);
    const address: string = trigger.body.source.address;
    expect(address).toMatch(new RegExp(`^t-[a-z2-9]{20}@${runtime.inboundDomain.replace(/\./g, '\\.')}$`));
    expect((await b('GET', `/triggers/${trigger.body.trigger_id}`)).status).toBe(404);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: runtime.smtpPort, secure: false, ignoreTLS: true, connectionTimeout: 5_000 });
    await transport.sendMail({ from: 'Grace <grace@customer.example>', to: address, subject: 'Out of office', text: 'Away', headers: { 'Auto-Submitted': 'auto-replied' } });
    await transport.sendMail({ from: 'Grace <grace@customer.example>', to: address, subject: 'Hello', text: 'No match' });
    const message = { from: 'Grace <grace@customer.example>', to: address, subject: 'Please audit us', text: 'Our systems are listed below.', messageId: '<q-1@customer.example>' };
    await transport.sendMail(message);
    // The same mail again, as a second forward would send it: same Message-ID, another Date.
    await transport.sendMail({ ...message, date: new Date(Date.now() + 3_600_000) });
    transport.close();
    const tasks = await eventually(async () => {
      const { body: listed } = await a('GET', `/tasks?trigger_id=${trigger.body.trigger_id}`);
      return listed.tasks.length > 0 ? listed.tasks : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await a('GET', `/tasks?trigger_id=${trigger.body.trigger_id}`)).body.tasks).toHaveLength(1);
    expect(tasks[0].trigger).toMatchObject({ type: 'mail', message_id: 'q-1@customer.example', from: 'grace@customer.example' });
  });

  it('never writes a credential to a log line or an event', async () => {
    const { body: events } = await a('GET', '/events?limit=100');
    const everything = [...output.json().map((line) => JSON.stringify(line)), JSON.stringify(events)];
    expect(output.json().length).toBeGreaterThan(10);
    for (const secret of SECRETS) expect(everything.filter((line) => line.includes(secret)), secret).toEqual([]);
  });

  it('deletes an integration and its credentials', async () => {
    expect((await a('DELETE', `/integrations/${ids.github}`)).status).toBe(204);
    expect((await a('GET', `/integrations/${ids.github}`)).status).toBe(404);
    const { body: task } = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick', repository: 'acme/models' } });
    expect(await taskEnded(a, task.task_id)).toMatchObject({ status: 'failed', error: { code: 'integration_not_found' } });
  });
});
