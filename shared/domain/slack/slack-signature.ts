import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Slack's request signatures (https://api.slack.com/authentication/verifying-requests-from-slack):
 * `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:<X-Slack-Request-Timestamp>:<raw body>">`, keyed
 * with the app's signing secret. Pure: the caller passes the clock, so tests pin it.
 */

/** Slack's replay window: a request stamped more than five minutes from now, either way, is refused. */
export const SLACK_SIGNATURE_TOLERANCE_SECONDS = 300;

const VERSION = 'v0';
const SIGNATURE = /^v0=[0-9a-f]{64}$/;
// Unix seconds as Slack sends them: decimal digits only, so "1e9", " 12", "12.5" or "-1" never pass.
const TIMESTAMP = /^[0-9]{1,15}$/;

export interface SlackSignatureInput {
  signingSecret: string;
  /** The `X-Slack-Request-Timestamp` header. */
  timestamp: string | undefined;
  /** The `X-Slack-Signature` header. */
  signature: string | undefined;
  /** The body exactly as received, before any form or JSON decoding. */
  rawBody: string;
  now: Date;
}

/**
 * `missing`: a header is absent, or the signature is not `v0=` and 64 lowercase hex digits;
 * `stale`: the timestamp is not an integer or lies outside the replay window;
 * `mismatch`: well-formed and fresh, but not signed with this secret over this body.
 */
export type SlackSignatureResult = { ok: true } | { ok: false; reason: 'missing' | 'stale' | 'mismatch' };

/** `v0=<hex>` for a body: what Slack sends, and what tests and loopback tools sign requests with. */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  return `${VERSION}=${createHmac('sha256', signingSecret).update(`${VERSION}:${timestamp}:${rawBody}`, 'utf8').digest('hex')}`;
}

/** Whether a request came from Slack, and if not, why; checked before anything reads the body. */
export function verifySlackSignature(input: SlackSignatureInput): SlackSignatureResult {
  const { timestamp, signature } = input;
  if (timestamp === undefined || signature === undefined || !SIGNATURE.test(signature)) return { ok: false, reason: 'missing' };
  if (!TIMESTAMP.test(timestamp)) return { ok: false, reason: 'stale' };
  const skew = Math.abs(Math.floor(input.now.getTime() / 1000) - Number(timestamp));
  if (skew > SLACK_SIGNATURE_TOLERANCE_SECONDS) return { ok: false, reason: 'stale' };
  // An empty secret is a configuration slip; anyone could sign with it, so nothing verifies.
  if (input.signingSecret === '') return { ok: false, reason: 'mismatch' };
  const expected = Buffer.from(slackSignature(input.signingSecret, timestamp, input.rawBody).slice(VERSION.length + 1), 'hex');
  const received = Buffer.from(signature.slice(VERSION.length + 1), 'hex');
  // Both are 32 bytes: the pattern above fixed the received length, so timingSafeEqual cannot throw.
  return timingSafeEqual(expected, received) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
