import { ErrorCode, LogLevel, WebClient, type Block, type KnownBlock, type View } from '@slack/web-api';
import { pinnedFetch } from '#shared/adapters/http/pinned-fetch';
import type { PinnedTarget } from '#shared/adapters/http/ssrf-guard';
import { ProviderFailure } from '#shared/domain/provider-failure';

const CALL_TIMEOUT_MS = 10_000;
/** Slack's answers that mean the token itself is refused (https://api.slack.com/methods/auth.test#errors). */
const REFUSED_TOKEN = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'no_permission', 'org_login_required', 'team_access_not_granted']);

export interface SlackConnection {
  botToken: string;
  apiUrl: string;
  /** The address the SSRF guard vetted: every connection goes there, the name is not resolved again. */
  pin?: PinnedTarget;
}

const quiet = { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => LogLevel.ERROR, setName() {} };

/** The official Web API client on `api_url` (default https://slack.com/api); our own retries, not its. */
export function slackClient(connection: SlackConnection): WebClient {
  const base = connection.apiUrl.endsWith('/') ? connection.apiUrl : `${connection.apiUrl}/`;
  return new WebClient(connection.botToken, { slackApiUrl: base, retryConfig: { retries: 0 }, timeout: CALL_TIMEOUT_MS, rejectRateLimitedCalls: true, logger: quiet, allowAbsoluteUrls: false, ...(connection.pin ? { fetch: pinnedFetch(connection.pin) } : {}) });
}

/** The client's errors in the proxy's terms. */
export function slackFailure(error: unknown): ProviderFailure {
  const code = (error as { code?: unknown }).code;
  if (code === ErrorCode.PlatformError) {
    const answer = String((error as { data?: { error?: unknown } }).data?.error ?? 'unknown_error');
    if (REFUSED_TOKEN.has(answer)) return new ProviderFailure('credentials_refused', `Slack refused the bot token (${answer}).`, answer);
    if (answer === 'ratelimited' || answer === 'internal_error' || answer === 'fatal_error' || answer === 'service_unavailable') return new ProviderFailure('transient', `Slack answered ${answer}.`, answer);
    return new ProviderFailure('rejected', `Slack answered ${answer}.`, answer);
  }
  if (code === ErrorCode.RateLimitedError) return new ProviderFailure('transient', 'Slack rate-limited the call.', 'ratelimited', (error as { retryAfter?: number }).retryAfter);
  if (code === ErrorCode.HTTPError) {
    const status = Number((error as { statusCode?: unknown }).statusCode);
    if (status === 401) return new ProviderFailure('credentials_refused', 'Slack refused the bot token (HTTP 401).', '401');
    return new ProviderFailure(status >= 500 || status === 429 ? 'transient' : 'rejected', `Slack answered HTTP ${status}.`, String(status));
  }
  return new ProviderFailure('transient', `Slack could not be reached: ${error instanceof Error ? error.message : String(error)}`);
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw slackFailure(error);
  }
}

/** Whose bot token it is: the connect-time check. */
export async function slackAccount(client: WebClient): Promise<Record<string, string>> {
  const answer = await call(() => client.auth.test());
  return Object.fromEntries(Object.entries({ team: answer.team, team_id: answer.team_id, bot_user: answer.user, bot_user_id: answer.user_id, bot_id: answer.bot_id, url: answer.url }).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export interface SlackMessage {
  channel: string;
  text: string;
  blocks?: (KnownBlock | Block)[];
  thread_ts?: string;
}

/** Posts a message; its `ts` is what later updates and thread replies name. */
export async function postMessage(client: WebClient, message: SlackMessage): Promise<{ channel: string; ts: string }> {
  const answer = await call(() => client.chat.postMessage({ channel: message.channel, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}), ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}), unfurl_links: false }));
  return { channel: String(answer.channel ?? message.channel), ts: String(answer.ts) };
}

/** Replaces a posted message (an approval's decision shown in place). */
export async function updateMessage(client: WebClient, message: SlackMessage & { ts: string }): Promise<void> {
  await call(() => client.chat.update({ channel: message.channel, ts: message.ts, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) }));
}

/** A message only `user` sees ("not allowed"). */
export async function postEphemeral(client: WebClient, request: { channel: string; user: string; text: string }): Promise<void> {
  await call(() => client.chat.postEphemeral(request));
}

/** Opens a modal on the trigger id of a click (valid for 3 seconds). */
export async function openView(client: WebClient, triggerId: string, view: View): Promise<void> {
  await call(() => client.views.open({ trigger_id: triggerId, view }));
}
