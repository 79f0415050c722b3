import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback Slack Web API for tests that drive the real `@slack/web-api` WebClient: `POST
 * /api/<method>` with a form or JSON body, the token in `Authorization: Bearer` or a `token`
 * field, and Slack's answers (HTTP 200 with `{ ok, ... }` or `{ ok: false, error }`, 429 with
 * `Retry-After`). Everything it knows lives in `state`, which tests seed, change and inspect.
 */

export interface SlackIdentity {
  team_id: string;
  team: string;
  user_id: string;
  user: string;
  /** Set for bot tokens (`xoxb-`); messages they post carry it. */
  bot_id?: string;
}

export interface SlackChannel {
  name: string;
  /** User ids in the channel; when given, a bot outside it gets `not_in_channel`. */
  members?: string[];
  is_private?: boolean;
}

export interface SlackMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: unknown;
  user: string;
  bot_id?: string;
  /** True once `chat.update` changed it; the versions are in `state.updates`. */
  updated?: boolean;
}

export interface SlackUpdate {
  channel: string;
  ts: string;
  text?: string;
  blocks?: unknown[];
}

export interface SlackCall {
  method: string;
  /** The arguments, whatever the encoding, with `blocks`/`attachments`/`view`/`metadata` parsed. */
  body: Record<string, unknown>;
  authorization?: string;
}

export interface SlackApiState {
  tokens: Map<string, SlackIdentity>;
  /** Keyed by channel id (`C0123`); `chat.postMessage` also accepts `#name` or `name`. */
  channels: Map<string, SlackChannel>;
  messages: SlackMessage[];
  /** Every `chat.update`, in order, as it changed the message. */
  updates: SlackUpdate[];
  ephemerals: Array<{ channel: string; user: string; text: string; blocks?: unknown[]; message_ts: string }>;
  views: Array<{ trigger_id: string; view: Record<string, unknown>; id: string }>;
  calls: SlackCall[];
  /**
   * The next `count` calls fail: a number is an HTTP status (429 comes with `Retry-After`), a
   * string a Slack error code answered as `{ ok: false, error }`.
   */
  failNext(count: number, errorOrHttpStatus: string | number, options?: { retryAfter?: number }): void;
}

export interface SlackApiServerOptions {
  tokens?: Record<string, SlackIdentity>;
  channels?: Record<string, SlackChannel>;
  /** Seconds of the first `ts` handed out; later ones only grow. */
  firstTs?: number;
}

export interface SlackApiServer {
  /** `http://127.0.0.1:<port>/api/`, the WebClient's `slackApiUrl`. */
  url: string;
  state: SlackApiState;
  close(): Promise<void>;
}

type Args = Record<string, unknown>;
type Result = Record<string, unknown>;

/** Thrown by a method to answer `{ ok: false, error }`. */
class SlackMethodError extends Error {
  constructor(readonly error: string) {
    super(error);
  }
}

// Slack sends these arguments JSON-encoded inside a form body.
const JSON_FIELDS = ['blocks', 'attachments', 'metadata', 'view'];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseArgs(contentType: string, text: string, query: URLSearchParams): Args {
  const args: Args = Object.fromEntries(query);
  if (contentType.startsWith('application/json')) {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SlackMethodError('invalid_json');
    return { ...args, ...(parsed as Args) };
  }
  for (const [key, value] of new URLSearchParams(text)) args[key] = value;
  for (const key of JSON_FIELDS) {
    if (typeof args[key] !== 'string') continue;
    try {
      args[key] = JSON.parse(args[key] as string);
    } catch {
      throw new SlackMethodError(key === 'blocks' ? 'invalid_blocks_format' : 'invalid_arguments');
    }
  }
  return args;
}

function optionalString(value: unknown): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/** Starts the server on 127.0.0.1 (random port), seeded from `options`. */
export async function startSlackApiServer(options: SlackApiServerOptions = {}): Promise<SlackApiServer> {
  const failures: Array<{ failure: string | number; retryAfter?: number }> = [];
  const state: SlackApiState = {
    tokens: new Map(Object.entries(options.tokens ?? {})),
    channels: new Map(Object.entries(options.channels ?? {})),
    messages: [],
    updates: [],
    ephemerals: [],
    views: [],
    calls: [],
    failNext(count, errorOrHttpStatus, failOptions = {}) {
      for (let i = 0; i < count; i += 1) failures.push({ failure: errorOrHttpStatus, retryAfter: failOptions.retryAfter });
    },
  };
  // Timestamps are Slack message ids: unique per channel and strictly increasing here.
  let tsCounter = (options.firstTs ?? 1_732_700_000) * 1_000_000 + 100;
  const nextTs = (): string => {
    const ts = tsCounter;
    tsCounter += 100;
    return `${Math.floor(ts / 1_000_000)}.${String(ts % 1_000_000).padStart(6, '0')}`;
  };
  let viewCounter = 0;

  const channelId = (args: Args): string => {
    const wanted = optionalString(args.channel);
    if (!wanted) throw new SlackMethodError('channel_not_found');
    if (state.channels.has(wanted)) return wanted;
    const name = wanted.replace(/^#/, '');
    const found = [...state.channels].find(([, channel]) => channel.name === name);
    if (!found) throw new SlackMethodError('channel_not_found');
    return found[0];
  };

  const requireMember = (id: string, userId: string, error: string) => {
    const members = state.channels.get(id)?.members;
    if (members && !members.includes(userId)) throw new SlackMethodError(error);
  };

  const messageJson = (message: SlackMessage, team: string) => ({
    type: 'message',
    user: message.user,
    ...(message.bot_id ? { bot_id: message.bot_id, app_id: 'A0GATEHOUSE' } : {}),
    text: message.text,
    ts: message.ts,
    team,
    ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(message.attachments ? { attachments: message.attachments } : {}),
    ...(message.metadata ? { metadata: message.metadata } : {}),
    ...(message.updated ? { edited: { user: message.user, ts: message.ts } } : {}),
  });

  const methods: Record<string, (args: Args, who: SlackIdentity) => Result> = {
    'auth.test': (_args, who) => ({
      url: `https://${who.team.toLowerCase().replace(/[^a-z0-9-]/g, '-')}.slack.com/`,
      team: who.team,
      user: who.user,
      team_id: who.team_id,
      user_id: who.user_id,
      ...(who.bot_id ? { bot_id: who.bot_id } : {}),
      is_enterprise_install: false,
    }),
    'chat.postMessage': (args, who) => {
      const channel = channelId(args);
      requireMember(channel, who.user_id, 'not_in_channel');
      const text = optionalString(args.text) ?? '';
      const blocks = Array.isArray(args.blocks) ? args.blocks : undefined;
      const attachments = Array.isArray(args.attachments) ? args.attachments : undefined;
      if (!text && !blocks?.length && !attachments?.length) throw new SlackMethodError('no_text');
      const message: SlackMessage = { channel, ts: nextTs(), text, user: who.user_id };
      const threadTs = optionalString(args.thread_ts);
      if (threadTs) message.thread_ts = threadTs;
      if (blocks) message.blocks = blocks;
      if (attachments) message.attachments = attachments;
      if (args.metadata !== undefined) message.metadata = args.metadata;
      if (who.bot_id) message.bot_id = who.bot_id;
      state.messages.push(message);
      return { channel, ts: message.ts, message: messageJson(message, who.team_id) };
    },
    'chat.update': (args, who) => {
      const channel = channelId(args);
      const ts = optionalString(args.ts);
      const message = state.messages.find((candidate) => candidate.channel === channel && candidate.ts === ts);
      if (!message) throw new SlackMethodError('message_not_found');
      if (message.user !== who.user_id) throw new SlackMethodError('cant_update_message');
      const text = optionalString(args.text);
      const blocks = Array.isArray(args.blocks) ? args.blocks : undefined;
      if (text === undefined && !blocks && !Array.isArray(args.attachments)) throw new SlackMethodError('no_text');
      if (text !== undefined) message.text = text;
      if (blocks) message.blocks = blocks;
      if (Array.isArray(args.attachments)) message.attachments = args.attachments;
      message.updated = true;
      state.updates.push({ channel, ts: message.ts, ...(text !== undefined ? { text } : {}), ...(blocks ? { blocks } : {}) });
      return { channel, ts: message.ts, text: message.text, message: messageJson(message, who.team_id) };
    },
    'chat.postEphemeral': (args) => {
      const channel = channelId(args);
      const user = optionalString(args.user);
      if (!user) throw new SlackMethodError('user_not_found');
      requireMember(channel, user, 'user_not_in_channel');
      const text = optionalString(args.text) ?? '';
      const blocks = Array.isArray(args.blocks) ? args.blocks : undefined;
      if (!text && !blocks?.length) throw new SlackMethodError('no_text');
      const messageTs = nextTs();
      state.ephemerals.push({ channel, user, text, ...(blocks ? { blocks } : {}), message_ts: messageTs });
      return { message_ts: messageTs };
    },
    'views.open': (args, who) => {
      const triggerId = optionalString(args.trigger_id);
      if (!triggerId) throw new SlackMethodError('invalid_trigger_id');
      const view = args.view;
      if (typeof view !== 'object' || view === null || Array.isArray(view)) throw new SlackMethodError('invalid_arguments');
      viewCounter += 1;
      const id = `V${String(viewCounter).padStart(10, '0')}`;
      state.views.push({ trigger_id: triggerId, view: view as Record<string, unknown>, id });
      return {
        view: { id, team_id: who.team_id, state: { values: {} }, hash: `${Date.now()}.${id}`, private_metadata: '', callback_id: '', app_id: 'A0GATEHOUSE', bot_id: who.bot_id, ...(view as Record<string, unknown>) },
      };
    },
    'conversations.history': (args, who) => {
      const channel = channelId(args);
      requireMember(channel, who.user_id, 'not_in_channel');
      const limit = Math.min(Math.max(Number(args.limit) || 100, 1), 999);
      const offset = args.cursor ? Number(Buffer.from(String(args.cursor), 'base64').toString('utf8').replace(/^offset:/, '')) || 0 : 0;
      // History holds top-level messages only; replies live in conversations.replies.
      const all = state.messages.filter((message) => message.channel === channel && (!message.thread_ts || message.thread_ts === message.ts)).reverse();
      const page = all.slice(offset, offset + limit);
      const hasMore = offset + limit < all.length;
      return {
        messages: page.map((message) => messageJson(message, who.team_id)),
        has_more: hasMore,
        response_metadata: { next_cursor: hasMore ? Buffer.from(`offset:${offset + limit}`).toString('base64') : '' },
      };
    },
    'conversations.info': (args, who) => {
      const id = channelId(args);
      const channel = state.channels.get(id) as SlackChannel;
      return {
        channel: {
          id,
          name: channel.name,
          is_channel: !channel.is_private,
          is_group: false,
          is_im: false,
          is_private: Boolean(channel.is_private),
          is_archived: false,
          is_member: !channel.members || channel.members.includes(who.user_id),
          ...(channel.members ? { num_members: channel.members.length } : {}),
        },
      };
    },
  };

  const answer = async (request: IncomingMessage): Promise<{ status: number; body: Result; headers?: Record<string, string> }> => {
    const url = new URL(request.url ?? '/', 'http://slack.invalid');
    const method = /^\/api\/([A-Za-z0-9_.]+)$/.exec(url.pathname)?.[1];
    const text = await readBody(request);
    const contentType = String(request.headers['content-type'] ?? '');
    let args: Args;
    try {
      args = parseArgs(contentType, text, url.searchParams);
    } catch (error) {
      return { status: 200, body: { ok: false, error: error instanceof SlackMethodError ? error.error : 'invalid_form_data' } };
    }
    state.calls.push({ method: method ?? url.pathname, body: args, authorization: request.headers.authorization });
    const injected = failures.shift();
    if (injected && typeof injected.failure === 'number') {
      const status = injected.failure;
      const retryAfter = injected.retryAfter ?? (status === 429 ? 1 : undefined);
      return { status, body: { ok: false, error: status === 429 ? 'ratelimited' : 'fatal_error' }, headers: retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) } };
    }
    if (injected) return { status: 200, body: { ok: false, error: injected.failure } };
    if (!method || !methods[method]) return { status: 200, body: { ok: false, error: 'unknown_method', req_method: method ?? url.pathname } };
    // A JSON body cannot carry the token: Slack reads it from the Authorization header only.
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const token = bearer ?? (contentType.startsWith('application/json') ? undefined : optionalString(args.token));
    if (!token) return { status: 200, body: { ok: false, error: 'not_authed' } };
    const who = state.tokens.get(token);
    if (!who) return { status: 200, body: { ok: false, error: 'invalid_auth' } };
    try {
      return { status: 200, body: { ok: true, ...methods[method](args, who) } };
    } catch (error) {
      if (error instanceof SlackMethodError) return { status: 200, body: { ok: false, error: error.error } };
      throw error;
    }
  };

  const send = (response: ServerResponse, status: number, body: Result, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  };

  const server = createServer((request, response) => {
    answer(request).then(
      ({ status, body, headers }) => send(response, status, body, headers),
      () => send(response, 200, { ok: false, error: 'internal_error' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    state,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
