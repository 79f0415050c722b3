import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EDIT_CALLBACK_ID, editModal, type SlackApproval } from '#shared/domain/slack/approval-message';
import { isHumanMessage, parseInteraction, parseSlackEvent, slackRetryNumber, viewErrors, type SlackMessageEvent } from '#shared/domain/slack/slack-payloads';

/**
 * Payloads shaped as Slack's reference pages show them
 * (https://api.slack.com/reference/interaction-payloads/block-actions,
 * .../interaction-payloads/views, https://api.slack.com/events/url_verification,
 * https://api.slack.com/events/message and its subtypes), ids made up.
 */

/** The body Slack posts to the interactivity URL: one form field, `payload`, holding the JSON. */
function formBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

const blockActions = {
  type: 'block_actions',
  user: { id: 'U123ABC456', username: 'ada', name: 'ada', team_id: 'T123ABC456' },
  api_app_id: 'A123ABC456',
  token: 'Shh_its_a_seekrit',
  container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C123ABC456', is_ephemeral: false },
  trigger_id: '1234567890123.1234567890123.abcdef0123456789abcdef0123456789',
  team: { id: 'T123ABC456', domain: 'acme' },
  enterprise: null,
  is_enterprise_install: false,
  channel: { id: 'C123ABC456', name: 'approvals' },
  message: {
    type: 'message',
    subtype: 'bot_message',
    text: 'Approval needed: Send the follow-up email',
    ts: '1700000000.000100',
    bot_id: 'B123ABC456',
    blocks: [{ type: 'actions', block_id: 'gatehouse_approval', elements: [] }],
  },
  state: { values: {} },
  response_url: 'https://hooks.slack.com/actions/T123ABC456/1234567890123/abcdefABCDEF1234567890',
  actions: [
    {
      action_id: 'approve',
      block_id: 'gatehouse_approval',
      text: { type: 'plain_text', text: 'Approve', emoji: true },
      value: 'apr_01JNEXAMPLE',
      style: 'primary',
      type: 'button',
      action_ts: '1700000005.123456',
    },
  ],
};

const approval: SlackApproval = {
  approval_id: 'apr_01JNEXAMPLE',
  task_id: 'tsk_1',
  agent: 'outreach',
  title: 'Send the follow-up email',
  description: '',
  action: { type: 'mail.send', to: 'ada@example.com', subject: 'Your order', body: 'Hello' },
  status: 'pending',
  created_at: '2025-03-01T09:00:00.000Z',
  expires_at: '2025-03-02T09:00:00.000Z',
};

/** A view_submission of our edit modal, its state keyed by the modal's own block and action ids. */
function viewSubmission(values: Record<string, string | null>) {
  const modal = editModal(approval);
  const state: Record<string, Record<string, { type: string; value: string | null }>> = {};
  for (const block of modal.blocks) {
    if (block.type === 'input') state[block.block_id] = { [block.element.action_id]: { type: 'plain_text_input', value: values[block.block_id] ?? null } };
  }
  return {
    type: 'view_submission',
    team: { id: 'T123ABC456', domain: 'acme' },
    user: { id: 'U123ABC456', username: 'ada', name: 'ada', team_id: 'T123ABC456' },
    api_app_id: 'A123ABC456',
    token: 'Shh_its_a_seekrit',
    trigger_id: '1234567890123.1234567890123.abcdef0123456789abcdef0123456789',
    view: {
      id: 'V123ABC456',
      team_id: 'T123ABC456',
      type: 'modal',
      blocks: modal.blocks,
      private_metadata: modal.private_metadata,
      callback_id: modal.callback_id,
      state: { values: state },
      hash: '1700000010.abcdef',
      title: modal.title,
      clear_on_close: false,
      notify_on_close: false,
      close: modal.close,
      submit: modal.submit,
      previous_view_id: null,
      root_view_id: 'V123ABC456',
      app_id: 'A123ABC456',
      external_id: '',
      app_installed_team_id: 'T123ABC456',
      bot_id: 'B123ABC456',
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

function eventCallback(event: Record<string, unknown>) {
  return JSON.stringify({
    token: 'XXYYZZ',
    team_id: 'T123ABC456',
    api_app_id: 'A123ABC456',
    event,
    type: 'event_callback',
    authed_users: ['U123ABC456'],
    event_id: 'Ev123ABC456',
    event_time: 1700000020,
  });
}

const humanMessage = {
  type: 'message',
  channel: 'C123ABC456',
  user: 'U123ABC456',
  text: 'Please draft a reply to Ada',
  ts: '1700000020.000200',
  event_ts: '1700000020.000200',
  channel_type: 'channel',
};

const botUserId = 'U0GATEHOUSE';

function messageEvent(fields: Record<string, unknown>): SlackMessageEvent {
  const parsed = parseSlackEvent(eventCallback({ ...humanMessage, ...fields }));
  if (parsed?.type !== 'event_callback') throw new Error(`not a message event: ${JSON.stringify(parsed)}`);
  return parsed.event;
}

describe('interactivity payloads', () => {
  it('reads a button press in a channel message', () => {
    const interaction = parseInteraction(formBody(blockActions));

    expect(interaction).toEqual({
      type: 'block_actions',
      user_id: 'U123ABC456',
      team_id: 'T123ABC456',
      trigger_id: '1234567890123.1234567890123.abcdef0123456789abcdef0123456789',
      channel_id: 'C123ABC456',
      message_ts: '1700000000.000100',
      action_id: 'approve',
      block_id: 'gatehouse_approval',
      value: 'apr_01JNEXAMPLE',
      response_url: 'https://hooks.slack.com/actions/T123ABC456/1234567890123/abcdefABCDEF1234567890',
    });
  });

  it('reads a body percent-encoded as Slack sends it, not only as URLSearchParams writes it', () => {
    const body = `payload=${encodeURIComponent(JSON.stringify(blockActions))}`;

    expect(parseInteraction(body)).toEqual(parseInteraction(formBody(blockActions)));
  });

  it('takes the team from team.id, and channel and ts from the container, when the user and message do not say', () => {
    const { channel: _channel, message: _message, ...rest } = blockActions;
    const payload = { ...rest, user: { id: 'U123ABC456', username: 'ada' }, team: { id: 'T999' } };

    expect(parseInteraction(formBody(payload))).toMatchObject({ team_id: 'T999', channel_id: 'C123ABC456', message_ts: '1700000000.000100' });
  });

  it('reads the edit modal submission: its callback id, the approval id and the three inputs', () => {
    const interaction = parseInteraction(formBody(viewSubmission({ to: 'grace@example.com', subject: 'Re: your order', body: 'Hi Grace,\n\nIt shipped & arrived.' })));

    expect(interaction).toEqual({
      type: 'view_submission',
      user_id: 'U123ABC456',
      team_id: 'T123ABC456',
      callback_id: EDIT_CALLBACK_ID,
      private_metadata: 'apr_01JNEXAMPLE',
      values: { to: 'grace@example.com', subject: 'Re: your order', body: 'Hi Grace,\n\nIt shipped & arrived.' },
    });
  });

  it('leaves out an input the person emptied (Slack sends null)', () => {
    const interaction = parseInteraction(formBody(viewSubmission({ to: 'grace@example.com', subject: null, body: 'Hi' })));

    expect(interaction).toMatchObject({ type: 'view_submission', values: { to: 'grace@example.com', body: 'Hi' } });
    expect(interaction?.type === 'view_submission' && interaction.values).not.toHaveProperty('subject');
  });

  it('keeps any text a person types through form encoding and back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (subject, body) => {
        const interaction = parseInteraction(formBody(viewSubmission({ to: 'a@example.com', subject, body })));

        expect(interaction).toMatchObject({ type: 'view_submission', values: { subject, body } });
      }),
    );
  });

  it.each([
    ['view_closed', { type: 'view_closed', user: { id: 'U1', team_id: 'T1' }, view: { id: 'V1' }, is_cleared: false }],
    ['shortcut', { type: 'shortcut', callback_id: 'x', trigger_id: '1.2.3', user: { id: 'U1' }, team: { id: 'T1' } }],
    ['interactive_message', { type: 'interactive_message', actions: [{ name: 'a' }], callback_id: 'x' }],
  ])('answers unsupported for a %s payload', (_name, payload) => {
    expect(parseInteraction(formBody(payload))).toEqual({ type: 'unsupported' });
  });

  it.each([
    ['an empty body', ''],
    ['no payload field', 'token=abc&type=block_actions'],
    ['a payload that is not JSON', 'payload=%7Bnot+json'],
    ['a JSON body instead of a form', JSON.stringify(blockActions)],
    ['a payload that is an array', formBody([blockActions])],
    ['a payload without a type', formBody({ ...blockActions, type: undefined })],
    ['block_actions without actions', formBody({ ...blockActions, actions: [] })],
    ['block_actions without a user', formBody({ ...blockActions, user: undefined })],
    ['block_actions with no team anywhere', formBody({ ...blockActions, user: { id: 'U1' }, team: null })],
    ['view_submission without state', formBody({ ...viewSubmission({}), view: { callback_id: EDIT_CALLBACK_ID, private_metadata: 'apr_1' } })],
  ])('is undefined for %s', (_name, body) => {
    expect(parseInteraction(body)).toBeUndefined();
  });

  it('never throws, whatever the body', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json().map((json) => `payload=${encodeURIComponent(json)}`)), (body) => {
        const interaction = parseInteraction(body);

        expect(interaction === undefined || typeof interaction.type === 'string').toBe(true);
      }),
    );
  });
});

describe('Events API payloads', () => {
  it('reads the URL verification challenge', () => {
    const body = JSON.stringify({ token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' });

    expect(parseSlackEvent(body)).toEqual({ type: 'url_verification', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
  });

  it('reads a message event with its envelope', () => {
    const parsed = parseSlackEvent(eventCallback(humanMessage));

    expect(parsed).toEqual({
      type: 'event_callback',
      team_id: 'T123ABC456',
      event_id: 'Ev123ABC456',
      event_time: 1700000020,
      event: { type: 'message', channel: 'C123ABC456', user: 'U123ABC456', text: 'Please draft a reply to Ada', ts: '1700000020.000200', channel_type: 'channel' },
    });
    expect(isHumanMessage(messageEvent({}), { botUserId })).toBe(true);
  });

  it('answers unsupported for other events and other envelopes', () => {
    expect(parseSlackEvent(eventCallback({ type: 'app_mention', user: 'U1', text: '<@U0GATEHOUSE> hi', ts: '1.2', channel: 'C1', event_ts: '1.2' }))).toEqual({ type: 'unsupported' });
    expect(parseSlackEvent(JSON.stringify({ token: 'x', team_id: 'T1', minute_rate_limited: 1518467820, api_app_id: 'A1', type: 'app_rate_limited' }))).toEqual({ type: 'unsupported' });
  });

  it.each([
    ['bot_message', { subtype: 'bot_message', bot_id: 'BB12033', username: 'github', user: undefined, text: 'Pushing is the answer' }],
    ['message_changed', { subtype: 'message_changed', hidden: true, user: undefined, text: undefined, message: { type: 'message', user: 'U123ABC456', text: 'edited', ts: '1700000019.000100' } }],
    ['message_deleted', { subtype: 'message_deleted', hidden: true, user: undefined, text: undefined, deleted_ts: '1700000019.000100' }],
    ['channel_join', { subtype: 'channel_join', text: '<@U123ABC456> has joined the channel' }],
    ['a bot posting with its bot token (bot_id, no subtype)', { user: botUserId, bot_id: 'B0GATEHOUSE', app_id: 'A123ABC456' }],
    ['our own bot user', { user: botUserId }],
    ['a reply in the thread under one of our posts', { user: 'U2', thread_ts: '1700000000.000100', parent_user_id: botUserId }],
  ])('is not a human message: %s', (_name, fields) => {
    expect(isHumanMessage(messageEvent(fields), { botUserId })).toBe(false);
  });

  it("is a human message when it replies in a person's thread", () => {
    expect(isHumanMessage(messageEvent({ thread_ts: '1700000000.000100', parent_user_id: 'U777' }), { botUserId })).toBe(true);
  });

  it.each([
    ['not JSON', '{"type":'],
    ['JSON null', 'null'],
    ['a form body', 'payload=%7B%7D'],
    ['url_verification without a challenge', JSON.stringify({ type: 'url_verification', token: 'x' })],
    ['event_callback without an event_id', JSON.stringify({ ...JSON.parse(eventCallback(humanMessage)), event_id: undefined })],
    ['a message without a channel', eventCallback({ ...humanMessage, channel: undefined })],
    ['a message without a ts', eventCallback({ ...humanMessage, ts: 42 })],
  ])('is undefined for %s', (_name, body) => {
    expect(parseSlackEvent(body)).toBeUndefined();
  });
});

describe('retries and answers', () => {
  it('reads X-Slack-Retry-Num whatever its case, and nothing when it is absent or not a number', () => {
    expect(slackRetryNumber({ 'X-Slack-Retry-Num': '1', 'X-Slack-Retry-Reason': 'http_timeout' })).toBe(1);
    expect(slackRetryNumber({ 'x-slack-retry-num': ['2'] })).toBe(2);
    expect(slackRetryNumber({ 'content-type': 'application/json' })).toBeUndefined();
    expect(slackRetryNumber({ 'x-slack-retry-num': 'soon' })).toBeUndefined();
    expect(slackRetryNumber({ 'x-slack-retry-num': undefined })).toBeUndefined();
  });

  it('answers a view submission with errors keyed by the inputs’ block ids', () => {
    const answer = viewErrors({ to: 'must be one email address', body: 'must not be empty' });

    expect(answer).toEqual({ response_action: 'errors', errors: { to: 'must be one email address', body: 'must not be empty' } });
    const inputs = editModal(approval).blocks.flatMap((block) => (block.type === 'input' ? [block.block_id] : []));
    expect(Object.keys(answer.errors).every((blockId) => inputs.includes(blockId))).toBe(true);
  });
});
