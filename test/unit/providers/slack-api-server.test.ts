import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSlackApiServer, type SlackApiServer } from '../../support/providers/slack-api-server.ts';

// The real @slack/web-api WebClient against the loopback Slack Web API: if these pass, the app's
// Slack adapter can be tested end to end without slack.com.

const BOT_TOKEN = 'xoxb-1-gatehouse';
const OTHER_BOT_TOKEN = 'xoxb-2-other';
const BOT = { team_id: 'T0001', team: 'Acme', user_id: 'U0BOT', user: 'gatehouse', bot_id: 'B0BOT' };
const BLOCKS = [
  { type: 'section', text: { type: 'mrkdwn', text: '*Approval needed* for `deploy`' } },
  { type: 'actions', elements: [{ type: 'button', action_id: 'approve', text: { type: 'plain_text', text: 'Approve' }, value: 'appr_1' }] },
];

let slack: SlackApiServer;

/** An application's client (`token` null: none); WebClient's own logger only reports errors. */
function client(token: string | null = BOT_TOKEN, options: { rejectRateLimitedCalls?: boolean } = {}): WebClient {
  return new WebClient(token ?? undefined, { slackApiUrl: slack.url, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR, timeout: 5_000, ...options });
}

beforeAll(async () => {
  slack = await startSlackApiServer({
    tokens: { [BOT_TOKEN]: BOT, [OTHER_BOT_TOKEN]: { ...BOT, user_id: 'U0OTHER', user: 'other', bot_id: 'B0OTHER' } },
    channels: { C0APPROVALS: { name: 'approvals' }, C0PRIVATE: { name: 'private', is_private: true, members: ['U0ALICE'] } },
  });
});

afterAll(async () => {
  await slack.close();
});

beforeEach(() => {
  for (const list of [slack.state.messages, slack.state.updates, slack.state.ephemerals, slack.state.views, slack.state.calls]) list.length = 0;
});

describe('auth.test', () => {
  it('describes the token', async () => {
    const result = await client().auth.test();

    expect(result).toMatchObject({ ok: true, url: 'https://acme.slack.com/', team: 'Acme', user: 'gatehouse', team_id: 'T0001', user_id: 'U0BOT', bot_id: 'B0BOT' });
    expect(slack.state.calls[0]).toMatchObject({ method: 'auth.test', authorization: `Bearer ${BOT_TOKEN}` });
  });

  it('reports an unknown token as a platform error with invalid_auth', async () => {
    const error = await client('xoxb-revoked').auth.test().catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: ErrorCode.PlatformError, data: { ok: false, error: 'invalid_auth' } });
    expect(ErrorCode.PlatformError).toBe('slack_webapi_platform_error');
  });

  it('reports a missing token as not_authed', async () => {
    await expect(client(null).auth.test()).rejects.toMatchObject({ code: 'slack_webapi_platform_error', data: { error: 'not_authed' } });
  });
});

describe('chat', () => {
  it('posts a message with blocks, which arrive parsed from the form body', async () => {
    const result = await client().chat.postMessage({ channel: 'C0APPROVALS', text: 'Approval needed for deploy', blocks: BLOCKS, metadata: { event_type: 'approval', event_payload: { id: 'appr_1' } } });

    expect(result).toMatchObject({ ok: true, channel: 'C0APPROVALS', message: { text: 'Approval needed for deploy', bot_id: 'B0BOT', blocks: BLOCKS } });
    expect(result.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(slack.state.messages).toEqual([{ channel: 'C0APPROVALS', ts: result.ts, text: 'Approval needed for deploy', blocks: BLOCKS, metadata: { event_type: 'approval', event_payload: { id: 'appr_1' } }, user: 'U0BOT', bot_id: 'B0BOT' }]);
  });

  it('hands out strictly increasing ts, accepts a channel name and threads replies', async () => {
    const first = await client().chat.postMessage({ channel: '#approvals', text: 'one' });
    const reply = await client().chat.postMessage({ channel: 'approvals', text: 'two', thread_ts: first.ts as string });

    expect(Number(reply.ts)).toBeGreaterThan(Number(first.ts));
    expect(slack.state.messages[1]).toMatchObject({ channel: 'C0APPROVALS', thread_ts: first.ts });
  });

  it('updates a message in place and keeps each update', async () => {
    const posted = await client().chat.postMessage({ channel: 'C0APPROVALS', text: 'pending', blocks: BLOCKS });
    const decided = [{ type: 'section', text: { type: 'mrkdwn', text: 'Approved by <@U0ALICE>' } }];

    const result = await client().chat.update({ channel: 'C0APPROVALS', ts: posted.ts as string, text: 'approved', blocks: decided });

    expect(result).toMatchObject({ ok: true, channel: 'C0APPROVALS', ts: posted.ts, text: 'approved' });
    expect(slack.state.messages).toEqual([expect.objectContaining({ ts: posted.ts, text: 'approved', blocks: decided, updated: true })]);
    expect(slack.state.updates).toEqual([{ channel: 'C0APPROVALS', ts: posted.ts, text: 'approved', blocks: decided }]);
  });

  it('refuses to update an unknown message or another bot’s message', async () => {
    const posted = await client().chat.postMessage({ channel: 'C0APPROVALS', text: 'mine' });

    await expect(client().chat.update({ channel: 'C0APPROVALS', ts: '1.000001', text: 'x' })).rejects.toMatchObject({ data: { error: 'message_not_found' } });
    await expect(client(OTHER_BOT_TOKEN).chat.update({ channel: 'C0APPROVALS', ts: posted.ts as string, text: 'x' })).rejects.toMatchObject({ data: { error: 'cant_update_message' } });
  });

  it('answers channel_not_found and not_in_channel', async () => {
    await expect(client().chat.postMessage({ channel: 'C0NOPE', text: 'x' })).rejects.toMatchObject({ data: { error: 'channel_not_found' } });
    await expect(client().chat.postMessage({ channel: 'C0PRIVATE', text: 'x' })).rejects.toMatchObject({ data: { error: 'not_in_channel' } });
  });

  it('posts an ephemeral message to a member of the channel', async () => {
    const result = await client().chat.postEphemeral({ channel: 'C0PRIVATE', user: 'U0ALICE', text: 'Only you can see this' });

    expect(result.message_ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(slack.state.ephemerals).toEqual([{ channel: 'C0PRIVATE', user: 'U0ALICE', text: 'Only you can see this', message_ts: result.message_ts }]);
    await expect(client().chat.postEphemeral({ channel: 'C0PRIVATE', user: 'U0BOB', text: 'x' })).rejects.toMatchObject({ data: { error: 'user_not_in_channel' } });
  });
});

describe('views and conversations', () => {
  it('opens a modal from a trigger', async () => {
    const view = { type: 'modal' as const, callback_id: 'reject_reason', title: { type: 'plain_text' as const, text: 'Reject' }, blocks: [{ type: 'input', block_id: 'reason', label: { type: 'plain_text', text: 'Why?' }, element: { type: 'plain_text_input', action_id: 'value' } }] };

    const result = await client().views.open({ trigger_id: '12345.98765.abcd', view });

    expect(result.view).toMatchObject({ id: expect.stringMatching(/^V/), type: 'modal', callback_id: 'reject_reason' });
    expect(slack.state.views).toEqual([{ trigger_id: '12345.98765.abcd', view, id: result.view?.id }]);
  });

  it('lists history newest first, page by page', async () => {
    for (const text of ['a', 'b', 'c']) await client().chat.postMessage({ channel: 'C0APPROVALS', text });

    const first = await client().conversations.history({ channel: 'C0APPROVALS', limit: 2 });
    const second = await client().conversations.history({ channel: 'C0APPROVALS', limit: 2, cursor: first.response_metadata?.next_cursor });

    expect(first.messages?.map((message) => message.text)).toEqual(['c', 'b']);
    expect(first.has_more).toBe(true);
    expect(second.messages?.map((message) => message.text)).toEqual(['a']);
  });

  it('describes a channel', async () => {
    const result = await client().conversations.info({ channel: 'C0PRIVATE' });

    expect(result.channel).toMatchObject({ id: 'C0PRIVATE', name: 'private', is_private: true, is_member: false });
  });
});

describe('wire formats and failures', () => {
  it('accepts a JSON body with a Bearer token, and a token form field', async () => {
    const json = await fetch(`${slack.url}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${BOT_TOKEN}` },
      body: JSON.stringify({ channel: 'C0APPROVALS', text: 'json', blocks: BLOCKS }),
    });
    const form = await fetch(`${slack.url}auth.test`, { method: 'POST', body: new URLSearchParams({ token: BOT_TOKEN }) });

    expect(await json.json()).toMatchObject({ ok: true, message: { text: 'json', blocks: BLOCKS } });
    expect(await form.json()).toMatchObject({ ok: true, user_id: 'U0BOT' });
  });

  it('ignores a token inside a JSON body, as Slack does', async () => {
    const response = await fetch(`${slack.url}auth.test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: BOT_TOKEN }) });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: false, error: 'not_authed' });
  });

  it('answers an unknown method with unknown_method', async () => {
    await expect(client().apiCall('chat.teleport', { channel: 'C0APPROVALS' })).rejects.toMatchObject({ code: ErrorCode.PlatformError, data: { error: 'unknown_method' } });
  });

  it('rate limits with 429 and Retry-After when told to', async () => {
    slack.state.failNext(1, 429, { retryAfter: 3 });

    const error = await client(BOT_TOKEN, { rejectRateLimitedCalls: true }).chat.postMessage({ channel: 'C0APPROVALS', text: 'x' }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 3 });
    expect(slack.state.messages).toEqual([]);
  });

  it('fails the next calls with an injected Slack error or HTTP status, then recovers', async () => {
    slack.state.failNext(1, 'internal_error');
    slack.state.failNext(1, 503);

    await expect(client().auth.test()).rejects.toMatchObject({ code: ErrorCode.PlatformError, data: { error: 'internal_error' } });
    await expect(client().auth.test()).rejects.toMatchObject({ code: ErrorCode.HTTPError, statusCode: 503 });
    await expect(client().auth.test()).resolves.toMatchObject({ ok: true });
  });
});
