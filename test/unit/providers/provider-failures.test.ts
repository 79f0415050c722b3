import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIssue, gitHubClient, listFiles, readFile } from '#shared/adapters/providers/github';
import { postMessage, slackAccount, slackClient } from '#shared/adapters/providers/slack';
import { SmtpMailer, verifySmtp } from '#shared/adapters/providers/smtp';
import { ProviderFailure } from '#shared/domain/provider-failure';
import { startGitHubApiServer } from '../../support/providers/github-api-server';
import { startSlackApiServer } from '../../support/providers/slack-api-server';
import { startSmtpTestServer } from '../../support/providers/smtp-test-server';

let github: Awaited<ReturnType<typeof startGitHubApiServer>>;
let slack: Awaited<ReturnType<typeof startSlackApiServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;

const failure = async (work: Promise<unknown>): Promise<ProviderFailure> => {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderFailure);
  return error as ProviderFailure;
};

describe('provider errors in the tool proxy\'s terms, from the real clients', () => {
  beforeAll(async () => {
    github = await startGitHubApiServer({ tokens: { good: { login: 'octo', id: 1 } }, repos: { 'acme/app': { default_branch: 'main', private: false, files: new Map([['a.txt', 'x'.repeat(250_000)]]) } } });
    slack = await startSlackApiServer({ tokens: { 'xoxb-good': { team_id: 'T1', team: 'Team', user_id: 'U1', user: 'bot', bot_id: 'B1' } }, channels: { C1: { name: 'general' } } });
    smtp = await startSmtpTestServer({ users: { ada: 'right' } });
  });

  afterAll(async () => {
    await Promise.all([github.close(), slack.close(), smtp.close()]);
  });

  it('GitHub: 401 refuses the credentials, 5xx and 429 pass (with Retry-After), 404 is rejected', async () => {
    expect((await failure(listFiles(gitHubClient({ token: 'bad', apiUrl: github.url }), 'acme/app'))).kind).toBe('credentials_refused');
    const client = gitHubClient({ token: 'good', apiUrl: github.url });
    github.state.failNext(1, 503);
    expect((await failure(listFiles(client, 'acme/app'))).kind).toBe('transient');
    github.state.failNext(1, 429, { retryAfter: 3 });
    expect(await failure(listFiles(client, 'acme/app'))).toMatchObject({ kind: 'transient', retryAfterSeconds: 3 });
    expect((await failure(readFile(client, 'acme/app', 'missing.txt'))).kind).toBe('rejected');
    expect((await failure(listFiles(gitHubClient({ token: 'good', apiUrl: 'http://127.0.0.1:9' }), 'acme/app'))).kind).toBe('transient');
  });

  it('GitHub: a file is cut at the bound and says so; an issue is opened once per key', async () => {
    const client = gitHubClient({ token: 'good', apiUrl: github.url });
    const file = await readFile(client, 'acme/app', 'a.txt');
    expect(file).toMatchObject({ size: 250_000, truncated: true });
    expect(file.content.length).toBe(200_000);
    const first = await createIssue(client, { repository: 'acme/app', title: 'Fix it', body: 'Please', idempotencyKey: 'apr_1' });
    const again = await createIssue(client, { repository: 'acme/app', title: 'Fix it', body: 'Please', idempotencyKey: 'apr_1' });
    expect(again).toEqual(first);
    expect(github.state.issues.filter((issue) => issue.repo === 'acme/app')).toHaveLength(1);
  });

  it('Slack: invalid_auth refuses the token, ratelimited passes, channel_not_found is rejected', async () => {
    expect((await failure(slackAccount(slackClient({ botToken: 'xoxb-bad', apiUrl: slack.url })))).kind).toBe('credentials_refused');
    const client = slackClient({ botToken: 'xoxb-good', apiUrl: slack.url });
    slack.state.failNext(1, 429, { retryAfter: 2 });
    expect(await failure(postMessage(client, { channel: 'C1', text: 'hi' }))).toMatchObject({ kind: 'transient', retryAfterSeconds: 2 });
    slack.state.failNext(1, 503);
    expect((await failure(postMessage(client, { channel: 'C1', text: 'hi' }))).kind).toBe('transient');
    expect((await failure(postMessage(client, { channel: 'C404', text: 'hi' }))).kind).toBe('rejected');
    expect(await postMessage(client, { channel: 'C1', text: 'hi' })).toMatchObject({ channel: 'C1', ts: expect.any(String) });
  });

  it('SMTP: 535 refuses the login, 451 passes, 550 is rejected, and the Message-ID comes from the key', async () => {
    const credentials = { host: '127.0.0.1', port: smtp.port, username: 'ada', password: 'right', secure: false };
    expect((await failure(verifySmtp({ ...credentials, password: 'wrong' }))).kind).toBe('credentials_refused');
    await verifySmtp(credentials);
    const mailer = new SmtpMailer(credentials);
    const mail = { from: 'Sales <sales@acme.example>', to: 'grace@customer.example', subject: 'Hello', body: 'Hi', idempotencyKey: 'apr_2' };
    smtp.state.failNext(1, 451);
    expect((await failure(mailer.send(mail))).kind).toBe('transient');
    smtp.state.failNext(1, 550);
    expect((await failure(mailer.send(mail))).kind).toBe('rejected');
    expect(await mailer.send(mail)).toEqual({ message_id: '<apr_2@gatehouse.local>' });
    expect(smtp.state.messages.at(-1)?.raw).toContain('X-Gatehouse-Loop: apr_2');
  });
});
