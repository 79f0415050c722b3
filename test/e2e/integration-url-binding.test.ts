import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { captureJsonOutput } from '../support/captured-output';
import { apiClient, eventually, startTestRuntime, taskEnded, type TestRuntime } from '../support/local-runtime';
import { startGitHubApiServer } from '../support/providers/github-api-server';
import { startRecordingHost, type RecordingHost } from '../support/providers/recording-host';
import { startSlackApiServer } from '../support/providers/slack-api-server';
import { SLACK } from '../support/slack-requests';

// The tool proxy's warnings are read below: logging on before any logger exists.
vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
});

// Issue 25, finding 2: `PATCH /integrations/{id} {"settings": {"api_url": "http://<any host>"}}` was
// accepted without credentials, and the next use sent `Authorization: token ghp_…` (GitHub, Octokit)
// or `Bearer xoxb-…` (Slack, @slack/web-api) to that host.
const GITHUB_TOKEN = 'ghp_urlBindingSecretToken0123456789';
const BOT_TOKEN = 'xoxb-url-binding-secret-bot-token-42';
const SIGNING_SECRET = '0123456789abcdef0123456789abcdef';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let github: Awaited<ReturnType<typeof startGitHubApiServer>>;
let slack: Awaited<ReturnType<typeof startSlackApiServer>>;
let anyHost: RecordingHost;
const output = captureJsonOutput();
const ids: { github?: string; slack?: string } = {};

/** What reached "any host" with one of our tokens. */
const leaked = () => anyHost.requests.filter((request) => [GITHUB_TOKEN, BOT_TOKEN].some((token) => JSON.stringify(request.headers).includes(token)));

describe('sealed credentials are bound to the URL they were checked against', () => {
  beforeAll(async () => {
    github = await startGitHubApiServer({ tokens: { [GITHUB_TOKEN]: { login: 'acme-bot', id: 42 } }, repos: { 'acme/models': { default_branch: 'main', private: true, collaborators: ['acme-bot'], files: new Map([['README.md', '# Models\n']]) } } });
    slack = await startSlackApiServer({
      tokens: { [BOT_TOKEN]: { team_id: SLACK.team_id, team: SLACK.team, user_id: SLACK.bot_user_id, user: 'gatehouse', bot_id: SLACK.bot_id } },
      channels: { [SLACK.channel]: { name: 'approvals' } },
    });
    anyHost = await startRecordingHost();
    runtime = await startTestRuntime('url-binding');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    await a('POST', '/agents/deploy', { agent_slug: 'sales' });
    ids.github = (await a('POST', '/integrations', { kind: 'github', name: 'GitHub', credentials: { token: GITHUB_TOKEN }, settings: { api_url: github.url } })).body.integration_id;
    ids.slack = (await a('POST', '/integrations', { kind: 'slack', name: 'Slack', credentials: { bot_token: BOT_TOKEN, signing_secret: SIGNING_SECRET }, settings: { api_url: slack.url, approvals_channel: SLACK.channel } })).body.integration_id;
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
    await Promise.all([github?.close(), slack?.close(), anyHost?.close()]);
    output.restore();
  });

  it('refuses the issue\'s PATCH of api_url without credentials, for GitHub and Slack, and changes nothing', async () => {
    for (const [id, url] of [[ids.github, github.url], [ids.slack, slack.url.replace(/\/$/, '')]] as const) {
      const patched = await a('PATCH', `/integrations/${id}`, { settings: { api_url: anyHost.url } });

      expect(patched.status).toBe(400);
      expect(patched.headers.get('content-type')).toContain('application/problem+json');
      expect(patched.body).toMatchObject({ code: 'integration_credentials_required', errors: [{ path: 'body.credentials' }] });
      expect((await a('GET', `/integrations/${id}`)).body.settings.api_url).toBe(url);
      expect((await a('POST', `/integrations/${id}/test`)).body).toMatchObject({ ok: true });
    }
    expect(anyHost.requests).toEqual([]);
  });

  it('still takes other settings without credentials', async () => {
    const patched = await a('PATCH', `/integrations/${ids.slack}`, { name: 'Acme Slack', settings: { approvers: [SLACK.approver] } });

    expect(patched.status).toBe(200);
    expect(patched.body.settings).toMatchObject({ api_url: slack.url.replace(/\/$/, ''), approvers: [SLACK.approver] });
  });

  it('refuses every use of a record whose URL moved without its credentials: test answers 409, nothing reaches the host', async () => {
    // As the record stood after the PATCH (or any write to the table): the URL changed, the sealed credentials did not.
    const tenant = (await integrationRepository.ownerOf(ids.github!))!;
    await integrationRepository.update(tenant, ids.github!, { settings: { api_url: anyHost.url } });
    await integrationRepository.update(tenant, ids.slack!, { settings: { api_url: anyHost.url, approvals_channel: SLACK.channel } });

    for (const id of [ids.github, ids.slack]) {
      const tested = await a('POST', `/integrations/${id}/test`);
      expect(tested.status).toBe(409);
      expect(tested.body).toMatchObject({ code: 'integration_url_unverified' });
    }
    await a('PATCH', '/agents/ai-readiness/config', { integrations: { github: ids.github } });
    const { body: task } = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick', repository: 'acme/models' } });
    expect(await taskEnded(a, task.task_id)).toMatchObject({ status: 'failed', error: { code: 'integration_url_unverified' } });
    // A sales draft parks on an approval, which the proxy would post to the Slack channel.
    const { body: draft } = await a('POST', '/tasks', { agent: 'sales', task_type: 'sales.draft_email', input: { lead: { name: 'Ada', email: 'ada@prospect.example', company: 'Prospect' }, product: { name: 'Gatehouse', value_proposition: 'Humans approve.' }, tone: 'concise' } });
    await eventually(async () => ((await a('GET', `/tasks/${draft.task_id}`)).body.status === 'awaiting_approval' ? true : undefined));
    await eventually(async () => output.json().find((line) => line.message === 'approval message not posted' && line.code === 'integration_url_unverified'), 30_000);

    expect(leaked()).toEqual([]);
    expect(anyHost.requests).toEqual([]);
    expect((await a('GET', `/integrations/${ids.github}`)).body.status).toBe('active');
  }, 90_000);

  it('binds the new URL once the credentials are given again with it and checked there', async () => {
    const patched = await a('PATCH', `/integrations/${ids.github}`, { credentials: { token: GITHUB_TOKEN }, settings: { api_url: github.url } });

    expect(patched.status).toBe(200);
    expect((await a('POST', `/integrations/${ids.github}/test`)).body).toMatchObject({ ok: true, account: { login: 'acme-bot' } });
  });

  it('refuses the runtime\'s own engine ports for webhook and integration URLs (issue 25, finding 8)', async () => {
    const engines = inject('engines');
    const own = [runtime.port, runtime.smtpPort, Number(new URL(engines.dynamodb).port), Number(new URL(engines.sqs).port)];

    for (const port of own) {
      const webhook = await a('POST', '/webhooks', { url: `http://127.0.0.1:${port}/`, events: ['task.complete'], secret: 'a-long-random-secret-0123456789' });
      expect(webhook.status, `webhook at ${port}`).toBe(400);
      expect(JSON.stringify(webhook.body.errors)).toContain("local runtime's own engines");
      const integration = await a('POST', '/integrations', { kind: 'github', name: 'Table', credentials: { token: GITHUB_TOKEN }, settings: { api_url: `http://localhost:${port}` } });
      expect(integration.status, `integration at ${port}`).toBe(400);
      expect(integration.body.errors).toMatchObject([{ path: 'body.settings.api_url' }]);
    }
    const mail = await a('POST', '/integrations', { kind: 'email', name: 'Own SMTP', credentials: { host: '127.0.0.1', port: runtime.smtpPort, secure: false }, settings: { from: 'a@acme.example' } });
    expect(mail.status).toBe(400);
    expect(mail.body.errors).toMatchObject([{ path: 'body.credentials.host' }]);
    // Loopback elsewhere stays usable locally: the loopback GitHub above connected.
    expect((await a('POST', '/webhooks', { url: `${anyHost.url}/hook`, events: ['task.complete'], secret: 'a-long-random-secret-0123456789' })).status).toBe(201);
  });
});
