import { randomBytes } from 'node:crypto';
import { verify as verifyGithubSignature } from '@octokit/webhooks-methods';
import fc from 'fast-check';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  buildWebhookBody,
  signWebhook,
  standardWebhooksKey,
  standardWebhooksVerifierSecret,
  verifyServiceSignature,
  type SigningSecrets,
  type WebhookEvent,
} from '#shared/domain/webhook-signature';

const event: WebhookEvent = {
  event_id: 'evt_01JABCDEF0123456789XYZ',
  type: 'task.complete',
  created_at: '2025-01-02T03:04:05.678Z',
  data: { task_id: 'tsk_1', note: 'naïve ✓ "quoted"' },
};

function sign(body: string, secrets: SigningSecrets, timestamp = new Date()) {
  return signWebhook({ body, eventId: event.event_id, eventType: event.type, timestamp, secrets });
}

describe('webhook body', () => {
  it('is the event as {id, type, created_at, data}, in that order', () => {
    const body = buildWebhookBody(event);

    expect(body).toBe(JSON.stringify({ id: event.event_id, type: event.type, created_at: event.created_at, data: event.data }));
    expect(Object.keys(JSON.parse(body))).toEqual(['id', 'type', 'created_at', 'data']);
  });
});

describe('signature headers', () => {
  const body = buildWebhookBody(event);
  const secret = 'client-chosen secret ✓';

  it('carries the delivery metadata, with one timestamp for both schemes', () => {
    const headers = sign(body, { current: secret }, new Date('2025-01-02T03:04:05.999Z'));

    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': 'Gatehouse-Webhooks/1.0',
      'X-Service-Event': 'task.complete',
      'X-Service-Delivery': event.event_id,
      'X-Service-Timestamp': '1735787045',
      'webhook-id': event.event_id,
      'webhook-timestamp': '1735787045',
    });
    expect(headers['X-Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('X-Service-Signature verifies with @octokit/webhooks-methods and with our own verifier', async () => {
    const headers = sign(body, { current: secret });

    expect(await verifyGithubSignature(secret, body, headers['X-Service-Signature'])).toBe(true);
    expect(await verifyGithubSignature('another secret', body, headers['X-Service-Signature'])).toBe(false);
    expect(verifyServiceSignature(body, headers['X-Service-Signature'], secret)).toBe(true);
  });

  it('our verifier rejects a wrong secret, a changed body, and malformed headers', () => {
    const header = sign(body, { current: secret })['X-Service-Signature'];

    expect(verifyServiceSignature(body, header, 'another secret')).toBe(false);
    expect(verifyServiceSignature(`${body} `, header, secret)).toBe(false);
    expect(verifyServiceSignature(body, undefined, secret)).toBe(false);
    expect(verifyServiceSignature(body, '', secret)).toBe(false);
    expect(verifyServiceSignature(body, header.toUpperCase(), secret)).toBe(false);
    expect(verifyServiceSignature(body, header.slice(0, -1), secret)).toBe(false);
  });

  it('webhook-signature verifies with the standardwebhooks package, given the documented verifier secret', () => {
    const headers = sign(body, { current: secret });

    expect(new Webhook(standardWebhooksVerifierSecret(secret)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('a plain secret passed to new Webhook(...) as-is does not verify (the package base64-decodes it)', () => {
    const plain = 's3cr3tvalue1';
    const headers = sign(body, { current: plain });

    expect(() => new Webhook(plain).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(new Webhook(plain, { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('a whsec_<base64> secret keys the Standard Webhooks signature with its decoded bytes, as the spec says', () => {
    const whsec = `whsec_${randomBytes(24).toString('base64')}`;
    const headers = sign(body, { current: whsec });

    expect(standardWebhooksVerifierSecret(whsec)).toBe(whsec);
    expect(standardWebhooksKey(whsec)).toEqual(Buffer.from(whsec.slice(6), 'base64'));
    expect(new Webhook(whsec).verify(body, headers)).toEqual(JSON.parse(body));
    // GitHub's format always keys with the secret string itself.
    expect(verifyServiceSignature(body, headers['X-Service-Signature'], whsec)).toBe(true);
  });

  it.each(['whsec_', 'whsec_not base64!', 'whsec_YWI', 'whsec_YWI==', 'whsec_YW-_'])(
    '%s is not canonical whsec_ base64, so it keys with its UTF-8 bytes',
    (odd) => {
      const headers = sign(body, { current: odd });

      expect(standardWebhooksKey(odd)).toEqual(Buffer.from(odd, 'utf8'));
      expect(new Webhook(standardWebhooksVerifierSecret(odd)).verify(body, headers)).toEqual(JSON.parse(body));
    },
  );

  it('holds for any secret and any JSON data, and a changed body fails every verifier', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, unit: 'grapheme' }), fc.jsonValue(), async (anySecret, data) => {
        const anyBody = buildWebhookBody({ ...event, data: { value: data } });
        const headers = sign(anyBody, { current: anySecret });
        const tampered = anyBody.replace('"value"', '"valuE"');

        expect(await verifyGithubSignature(anySecret, anyBody, headers['X-Service-Signature'])).toBe(true);
        expect(verifyServiceSignature(anyBody, headers['X-Service-Signature'], anySecret)).toBe(true);
        expect(new Webhook(standardWebhooksVerifierSecret(anySecret)).verify(anyBody, headers, { jsonParse: false })).toBeUndefined();
        expect(verifyServiceSignature(tampered, headers['X-Service-Signature'], anySecret)).toBe(false);
        expect(() => new Webhook(standardWebhooksVerifierSecret(anySecret)).verify(tampered, headers)).toThrow(WebhookVerificationError);
      }),
      { numRuns: 200 },
    );
  });
});

describe('secret rotation', () => {
  const body = buildWebhookBody(event);
  const current = 'new-secret-after-rotation';
  const previous = 'old-secret-before-rotation';

  it('during the overlap both secrets verify with standardwebhooks; X-Service-Signature uses the current one only', async () => {
    const now = new Date();
    const headers = sign(body, { current, previous: { secret: previous, expiresAt: new Date(now.getTime() + 60_000) } }, now);

    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(standardWebhooksVerifierSecret(current)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(standardWebhooksVerifierSecret(previous)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(await verifyGithubSignature(current, body, headers['X-Service-Signature'])).toBe(true);
    expect(await verifyGithubSignature(previous, body, headers['X-Service-Signature'])).toBe(false);
  });

  it('after the overlap window only the current secret signs', () => {
    const now = new Date();
    const headers = sign(body, { current, previous: { secret: previous, expiresAt: now } }, now);

    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(new Webhook(standardWebhooksVerifierSecret(current)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(standardWebhooksVerifierSecret(previous)).verify(body, headers)).toThrow(WebhookVerificationError);
  });
});
