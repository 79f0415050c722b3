import * as z from '#shared/zod';
import { EDIT_FIELDS, type EditField } from '#shared/domain/slack/approval-message';

/**
 * What Slack posts to us, read into the few fields Gatehouse acts on. Slack adds fields freely, so
 * the schemas keep what they name and drop the rest; anything that is not what Slack documents is
 * `undefined` (the caller answers 400), and a well-formed payload of a kind we do not handle is
 * `{type: 'unsupported'}` (the caller answers 200, so Slack does not retry it).
 *
 * Interactivity: https://api.slack.com/reference/interaction-payloads/block-actions and
 * .../interaction-payloads/views. Events API: https://api.slack.com/apis/events-api.
 * Signatures are checked before any of this runs (slack-signature.ts).
 */

const id = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(255)));
const token = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(2048)));
const team = /* @__PURE__ */ z.schema(() => z.optional(z.nullable(z.object({ id }))));
const user = /* @__PURE__ */ z.schema(() => z.object({ id, team_id: z.optional(id) }));

const kind = /* @__PURE__ */ z.schema(() => z.object({ type: z.string() }));

const blockActionsPayload = /* @__PURE__ */ z.schema(() =>
  z.object({
    type: z.literal('block_actions'),
    user,
    team,
    trigger_id: token,
    channel: z.optional(z.object({ id })),
    message: z.optional(z.object({ ts: id })),
    // The same place again, for surfaces whose payload carries no `channel`/`message`.
    container: z.optional(z.object({ channel_id: z.optional(id), message_ts: z.optional(id) })),
    response_url: z.optional(token),
    actions: z.array(z.object({ action_id: id, block_id: z.optional(id), value: z.optional(z.string()) })).check(z.minLength(1)),
  }),
);

const inputState = /* @__PURE__ */ z.schema(() => z.object({ type: z.optional(z.string()), value: z.optional(z.nullable(z.string())) }));

const viewSubmissionPayload = /* @__PURE__ */ z.schema(() =>
  z.object({
    type: z.literal('view_submission'),
    user,
    team,
    view: z.object({
      callback_id: z.string(),
      private_metadata: z._default(z.string(), ''),
      state: z.object({ values: z.record(z.string(), z.record(z.string(), inputState)) }),
    }),
  }),
);

const messageEvent = /* @__PURE__ */ z.schema(() =>
  z.object({
    type: z.literal('message'),
    channel: id,
    user: z.optional(id),
    text: z._default(z.string(), ''),
    ts: id,
    thread_ts: z.optional(id),
    /** Who wrote the thread's first message; Slack sets it on replies. */
    parent_user_id: z.optional(id),
    subtype: z.optional(z.string()),
    bot_id: z.optional(z.nullable(z.string())),
    channel_type: z.optional(z.string()),
  }),
);

const urlVerification = /* @__PURE__ */ z.schema(() => z.object({ type: z.literal('url_verification'), challenge: token }));

const eventCallback = /* @__PURE__ */ z.schema(() =>
  z.object({ type: z.literal('event_callback'), team_id: id, event_id: id, event_time: z.number(), event: z.object({ type: z.string() }) }),
);

/** The edit modal's values, by field; a field the modal did not have, or left empty, is absent. */
export type EditValues = Partial<Record<EditField, string>>;

/** One interactivity request, flattened to what a handler needs. */
export type Interaction =
  | {
      type: 'block_actions';
      user_id: string;
      team_id: string;
      trigger_id: string;
      /** Absent when the button was not in a channel message (a modal, the App Home). */
      channel_id?: string;
      message_ts?: string;
      action_id: string;
      block_id?: string;
      value?: string;
      response_url?: string;
    }
  | { type: 'view_submission'; user_id: string; team_id: string; callback_id: string; private_metadata: string; values: EditValues }
  | { type: 'unsupported' };

/** A `message` event as Slack sends it, minus fields we never read. */
export type SlackMessageEvent = z.infer<typeof messageEvent>;

/** One Events API request. */
export type SlackEvent =
  | { type: 'url_verification'; challenge: string }
  | { type: 'event_callback'; team_id: string; event_id: string; event_time: number; event: SlackMessageEvent }
  | { type: 'unsupported' };

/** Reads an interactivity request: a form body whose one `payload` field holds the JSON. */
export function parseInteraction(rawBody: string): Interaction | undefined {
  const payload = new URLSearchParams(rawBody).get('payload');
  const json = payload === null ? undefined : parseJson(payload);
  const envelope = kind.safeParse(json);
  if (!envelope.success) return undefined;
  if (envelope.data.type === 'block_actions') return blockActions(json);
  if (envelope.data.type === 'view_submission') return viewSubmission(json);
  return { type: 'unsupported' };
}

/** Reads an Events API request (a JSON body): the URL check, a message event, or something we ignore. */
export function parseSlackEvent(rawBody: string): SlackEvent | undefined {
  const json = parseJson(rawBody);
  const envelope = kind.safeParse(json);
  if (!envelope.success) return undefined;
  if (envelope.data.type === 'url_verification') {
    const parsed = urlVerification.safeParse(json);
    return parsed.success ? { type: 'url_verification', challenge: parsed.data.challenge } : undefined;
  }
  if (envelope.data.type !== 'event_callback') return { type: 'unsupported' };
  const parsed = eventCallback.safeParse(json);
  if (!parsed.success) return undefined;
  if (parsed.data.event.type !== 'message') return { type: 'unsupported' };
  const event = messageEvent.safeParse((json as { event: unknown }).event);
  if (!event.success) return undefined;
  const { team_id, event_id, event_time } = parsed.data;
  return { type: 'event_callback', team_id, event_id, event_time, event: event.data };
}

/**
 * Whether a message is a person writing in the channel: not an edit, deletion, join or other
 * subtype, not a bot (ours included), and not a reply in the thread under one of our posts (those
 * threads belong to the message we posted). `botUserId` is our bot's user id (auth.test `user_id`).
 */
export function isHumanMessage(event: SlackMessageEvent, own: { botUserId?: string } = {}): boolean {
  if (event.subtype !== undefined || event.bot_id || event.user === undefined) return false;
  if (own.botUserId === undefined) return true;
  if (event.user === own.botUserId) return false;
  const isReply = event.thread_ts !== undefined && event.thread_ts !== event.ts;
  return !(isReply && event.parent_user_id === own.botUserId);
}

/** Slack's `X-Slack-Retry-Num` (1, 2, 3 on redeliveries), whatever the header's case; undefined on a first delivery. */
export function slackRetryNumber(headers: Record<string, string | string[] | undefined>): number | undefined {
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'x-slack-retry-num');
  const raw = name === undefined ? undefined : headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value !== undefined && /^[0-9]{1,6}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** The `view_submission` answer that keeps the modal open and shows each message under its input. */
export function viewErrors(errors: EditValues): { response_action: 'errors'; errors: Record<string, string> } {
  const byBlock: Record<string, string> = {};
  for (const field of EDIT_FIELDS) {
    const message = errors[field];
    if (message !== undefined) byBlock[field] = message;
  }
  return { response_action: 'errors', errors: byBlock };
}

function blockActions(json: unknown): Interaction | undefined {
  const parsed = blockActionsPayload.safeParse(json);
  if (!parsed.success) return undefined;
  const payload = parsed.data;
  const teamId = payload.user.team_id ?? payload.team?.id;
  if (teamId === undefined) return undefined;
  const [action] = payload.actions;
  const channelId = payload.channel?.id ?? payload.container?.channel_id;
  const messageTs = payload.message?.ts ?? payload.container?.message_ts;
  return {
    type: 'block_actions',
    user_id: payload.user.id,
    team_id: teamId,
    trigger_id: payload.trigger_id,
    ...(channelId !== undefined ? { channel_id: channelId } : {}),
    ...(messageTs !== undefined ? { message_ts: messageTs } : {}),
    action_id: action.action_id,
    ...(action.block_id !== undefined ? { block_id: action.block_id } : {}),
    ...(action.value !== undefined ? { value: action.value } : {}),
    ...(payload.response_url !== undefined ? { response_url: payload.response_url } : {}),
  };
}

function viewSubmission(json: unknown): Interaction | undefined {
  const parsed = viewSubmissionPayload.safeParse(json);
  if (!parsed.success) return undefined;
  const payload = parsed.data;
  const teamId = payload.user.team_id ?? payload.team?.id;
  if (teamId === undefined) return undefined;
  const values: EditValues = {};
  for (const field of EDIT_FIELDS) {
    // Each input is its own block, `block_id` and `action_id` both the field's name (editModal).
    const value = payload.view.state.values[field]?.[field]?.value;
    if (typeof value === 'string') values[field] = value;
  }
  return {
    type: 'view_submission',
    user_id: payload.user.id,
    team_id: teamId,
    callback_id: payload.view.callback_id,
    private_metadata: payload.view.private_metadata,
    values,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
