import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServiceEvent } from '#shared/domain/event';

/**
 * Webhook body and signature headers. Pure: no I/O, no clock (the caller passes the timestamp),
 * so that a retry can re-sign the same bytes with a fresh timestamp and tests can pin both.
 *
 * Two signature schemes go out on every delivery, so receivers can use whichever tooling they
 * already have:
 * - `X-Service-Signature: sha256=<hex>` — GitHub's X-Hub-Signature-256 format: HMAC-SHA256 of the
 *   exact body, keyed with the UTF-8 bytes of the subscription secret. GitHub's format carries one
 *   value, so it is signed with the current secret only.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): HMAC-SHA256 of
 *   `${id}.${timestamp}.${body}`, base64, one space-separated `v1,<sig>` entry per active secret,
 *   so receivers holding either secret verify during a rotation overlap.
 */

export const WEBHOOK_USER_AGENT = 'Gatehouse-Webhooks/1.0';

const SERVICE_SIGNATURE_PREFIX = 'sha256=';
const STANDARD_WEBHOOKS_SECRET_PREFIX = 'whsec_';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type WebhookEvent = Pick<ServiceEvent, 'event_id' | 'type' | 'created_at' | 'data'>;

/** The secrets that sign one delivery: the current one, and the previous one while its overlap window lasts. */
export interface SigningSecrets {
  current: string;
  previous?: { secret: string; expiresAt: Date };
}

export interface SignWebhookInput {
  body: string;
  eventId: string;
  eventType: string;
  /** When this attempt is signed; a retry passes a new one (receivers reject stale timestamps). */
  timestamp: Date;
  secrets: SigningSecrets;
}

/**
 * The exact delivery body. These bytes are what gets signed and sent, so build them once and
 * pass the same string to the signer and the sender; never re-serialise in between.
 */
export function buildWebhookBody(event: WebhookEvent): string {
  return JSON.stringify({ id: event.event_id, type: event.type, created_at: event.created_at, data: event.data });
}

/** All headers of one delivery attempt, signatures included. */
export function signWebhook(input: SignWebhookInput): Record<string, string> {
  const unixSeconds = Math.floor(input.timestamp.getTime() / 1000);
  const timestamp = String(unixSeconds);
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'X-Service-Signature': serviceSignature(input.body, input.secrets.current),
    'X-Service-Event': input.eventType,
    'X-Service-Delivery': input.eventId,
    'X-Service-Timestamp': timestamp,
    'webhook-id': input.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': activeSecrets(input.secrets, input.timestamp)
      .map((secret) => standardWebhooksSignature(input.eventId, unixSeconds, input.body, secret))
      .join(' '),
  };
}

/** The secrets that sign at `at`: current first; previous only while `at` is before its expiry. */
export function activeSecrets(secrets: SigningSecrets, at: Date): string[] {
  const previous = secrets.previous;
  return previous && at.getTime() < previous.expiresAt.getTime() ? [secrets.current, previous.secret] : [secrets.current];
}

/** `sha256=<lowercase hex HMAC-SHA256(body)>`, keyed with the UTF-8 bytes of the secret (GitHub's format). */
export function serviceSignature(body: string, secret: string): string {
  return SERVICE_SIGNATURE_PREFIX + createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/**
 * Checks an `X-Service-Signature` header in constant time. Kept for our docs and tests; it is what
 * a receiver without GitHub tooling would write.
 */
export function verifyServiceSignature(body: string, header: string | undefined, secret: string): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(serviceSignature(body, secret), 'utf8');
  const received = Buffer.from(header, 'utf8');
  // timingSafeEqual throws on length mismatch; the length of a well-formed signature is public anyway.
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** `v1,<base64 HMAC-SHA256 of "${id}.${timestamp}.${body}">` keyed with {@link standardWebhooksKey}. */
export function standardWebhooksSignature(id: string, unixSeconds: number, body: string, secret: string): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${unixSeconds}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/**
 * The key bytes of the Standard Webhooks signature.
 *
 * The spec's secrets are `whsec_<base64>` and the key is the decoded base64; the reference
 * `standardwebhooks` package (`new Webhook(secret)`) strips an optional `whsec_` prefix and
 * base64-decodes whatever is left. Our subscription secrets are client-chosen strings, so:
 * - a secret that is `whsec_` followed by canonical, padded standard base64 is used as the spec
 *   says: key = the decoded bytes (the client evidently chose a Standard Webhooks secret);
 * - any other secret: key = its UTF-8 bytes, the same bytes that key `X-Service-Signature`.
 *
 * A receiver passes {@link standardWebhooksVerifierSecret} to `new Webhook(...)`: the secret itself
 * in the first case, `whsec_` + base64(UTF-8 of the secret) in the second (equivalently
 * `new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' })`). Passing a plain secret such as
 * `s3cr3t-value` straight to `new Webhook(...)` does not work: the package would base64-decode it
 * into different bytes and every signature would be rejected.
 */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith(STANDARD_WEBHOOKS_SECRET_PREFIX) ? secret.slice(STANDARD_WEBHOOKS_SECRET_PREFIX.length) : undefined;
  if (encoded !== undefined && encoded.length > 0 && CANONICAL_BASE64.test(encoded)) return Buffer.from(encoded, 'base64');
  return Buffer.from(secret, 'utf8');
}

/** The string a receiver passes to `new Webhook(...)` of the `standardwebhooks` package for this secret. */
export function standardWebhooksVerifierSecret(secret: string): string {
  return STANDARD_WEBHOOKS_SECRET_PREFIX + standardWebhooksKey(secret).toString('base64');
}
