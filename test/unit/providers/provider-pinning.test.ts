import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinnedTarget } from '#shared/adapters/http/ssrf-guard';
import { gitHubAccount, gitHubClient } from '#shared/adapters/providers/github';
import { slackAccount, slackClient } from '#shared/adapters/providers/slack';
import { SmtpMailer, verifySmtp } from '#shared/adapters/providers/smtp';
import { startGitHubApiServer } from '../../support/providers/github-api-server';
import { startSlackApiServer } from '../../support/providers/slack-api-server';
import { startSmtpTestServer } from '../../support/providers/smtp-test-server';

// `.test` names never resolve (RFC 2606): a client that looked the name up again would fail, so
// reaching the loopback server proves it connected to the vetted address it was given.
const HOST = 'provider.test';
const pin = (url: string): PinnedTarget => ({ url: new URL(url), hostname: HOST, address: '127.0.0.1', family: 4 });

let github: Awaited<ReturnType<typeof startGitHubApiServer>>;
let slack: Awaited<ReturnType<typeof startSlackApiServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;

describe('provider clients connect to the address the SSRF guard vetted, never resolving the name again', () => {
  beforeAll(async () => {
    github = await startGitHubApiServer({ tokens: { tok: { login: 'octo', id: 1 } } });
    slack = await startSlackApiServer({ tokens: { 'xoxb-t': { team_id: 'T1', team: 'Team', user_id: 'U1', user: 'bot', bot_id: 'B1' } } });
    smtp = await startSmtpTestServer({ users: { ada: 'pw' } });
  });

  afterAll(async () => {
    await Promise.all([github.close(), slack.close(), smtp.close()]);
  });

  it('GitHub (Octokit over a pinned undici dispatcher)', async () => {
    const apiUrl = github.url.replace('127.0.0.1', HOST);
    await expect(gitHubAccount(gitHubClient({ token: 'tok', apiUrl }))).rejects.toMatchObject({ kind: 'transient' });
    expect(await gitHubAccount(gitHubClient({ token: 'tok', apiUrl, pin: pin(apiUrl) }))).toMatchObject({ login: 'octo' });
    expect(github.state.requests.at(-1)).toMatchObject({ path: '/user' });
  });

  it('Slack (WebClient over a pinned agent)', async () => {
    const apiUrl = slack.url.replace('127.0.0.1', HOST);
    await expect(slackAccount(slackClient({ botToken: 'xoxb-t', apiUrl }))).rejects.toMatchObject({ kind: 'transient' });
    expect(await slackAccount(slackClient({ botToken: 'xoxb-t', apiUrl, pin: pin(apiUrl) }))).toMatchObject({ team_id: 'T1' });
  });

  it('SMTP (nodemailer to the pinned address)', async () => {
    const credentials = { host: HOST, port: smtp.port, username: 'ada', password: 'pw', secure: false };
    await expect(verifySmtp(credentials)).rejects.toMatchObject({ kind: 'transient' });
    await verifySmtp(credentials, pin(`https://${HOST}:${smtp.port}/`));
    await new SmtpMailer(credentials, pin(`https://${HOST}:${smtp.port}/`)).send({ from: 'a@acme.example', to: 'b@acme.example', subject: 'Pinned', body: 'x', idempotencyKey: 'apr_pin' });
    expect(smtp.state.messages.at(-1)?.raw).toContain('Subject: Pinned');
  });
});
