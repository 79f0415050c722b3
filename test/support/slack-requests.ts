import { editModal, type SlackApproval } from '#shared/domain/slack/approval-message';
import { slackSignature } from '#shared/domain/slack/slack-signature';

/** A Slack workspace and app, as the loopback Slack server and the signed requests play them. */
export const SLACK = { team_id: 'T0GATEHOUSE', team: 'Gatehouse Test', bot_user_id: 'U0BOT', bot_id: 'B0BOT', approver: 'U0APPROVER', outsider: 'U0OUTSIDER', channel: 'C0APPROVALS', chatChannel: 'C0REQUESTS' } as const;

/** The headers Slack signs a request with (`v0` HMAC-SHA256 of `v0:<timestamp>:<body>`). */
export function signedHeaders(signingSecret: string, body: string, contentType: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { 'Content-Type': contentType, 'X-Slack-Request-Timestamp': String(timestamp), 'X-Slack-Signature': slackSignature(signingSecret, String(timestamp), body) };
}

/** A block_actions click on an approval message's button, form-encoded as Slack sends it. */
export function clickBody(action: 'approve' | 'deny' | 'edit', approvalId: string, user: string = SLACK.approver, channel: string = SLACK.channel): string {
  const payload = {
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: SLACK.team_id },
    api_app_id: 'A0GATEHOUSE',
    container: { type: 'message', message_ts: '1732700000.000100', channel_id: channel, is_ephemeral: false },
    trigger_id: '1234567890123.1234567890123.abcdef0123456789abcdef0123456789',
    team: { id: SLACK.team_id, domain: 'gatehouse-test' },
    channel: { id: channel, name: 'approvals' },
    message: { type: 'message', text: 'Approval needed', ts: '1732700000.000100', bot_id: SLACK.bot_id },
    response_url: 'https://hooks.slack.com/actions/T0GATEHOUSE/1/abc',
    actions: [{ action_id: action, block_id: 'gatehouse_approval', value: approvalId, type: 'button', action_ts: '1732700005.000001' }],
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** The edit modal's submission with the person's values, keyed by the modal's own block and action ids. */
export function editSubmissionBody(approval: SlackApproval, values: Record<string, string>, user: string = SLACK.approver): string {
  const modal = editModal(approval);
  const state: Record<string, Record<string, { type: string; value: string | null }>> = {};
  for (const block of modal.blocks) {
    if (block.type === 'input') state[block.block_id] = { [block.element.action_id]: { type: 'plain_text_input', value: values[block.block_id] ?? null } };
  }
  const payload = {
    type: 'view_submission',
    team: { id: SLACK.team_id, domain: 'gatehouse-test' },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: SLACK.team_id },
    api_app_id: 'A0GATEHOUSE',
    trigger_id: '1234567890123.1234567890123.abcdef0123456789abcdef0123456789',
    view: { id: 'V0EDIT', team_id: SLACK.team_id, type: 'modal', blocks: modal.blocks, private_metadata: modal.private_metadata, callback_id: modal.callback_id, state: { values: state }, hash: '1732700010.abc', title: modal.title, app_id: 'A0GATEHOUSE', bot_id: SLACK.bot_id },
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** An Events API `message` event in a channel, as JSON. */
export function messageEventBody(text: string, ts: string, channel: string = SLACK.chatChannel, user: string = SLACK.approver): string {
  return JSON.stringify({
    token: 'unused',
    team_id: SLACK.team_id,
    api_app_id: 'A0GATEHOUSE',
    event: { type: 'message', channel, user, text, ts, event_ts: ts, channel_type: 'channel' },
    type: 'event_callback',
    event_id: `Ev${ts.replace('.', '')}`,
    event_time: Math.floor(Number(ts)),
  });
}
