import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slackSignature, verifySlackSignature } from '#shared/domain/slack/slack-signature';

// Slack's worked example: https://api.slack.com/authentication/verifying-requests-from-slack
const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
const timestamp = '1531420618';
const rawBody =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const signature = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';
const signedAt = new Date(Number(timestamp) * 1000);

function secondsAfter(seconds: number): Date {
  return new Date((Number(timestamp) + seconds) * 1000);
}

describe('Slack request signatures', () => {
  it("verifies Slack's documented example, and signs it to the documented value", () => {
    const result = verifySlackSignature({ signingSecret, timestamp, signature, rawBody, now: signedAt });

    expect(result).toEqual({ ok: true });
    expect(slackSignature(signingSecret, timestamp, rawBody)).toBe(signature);
  });

  it('accepts a request up to 300 s old or early, and refuses 301 s either way as stale', () => {
    const at = (now: Date) => verifySlackSignature({ signingSecret, timestamp, signature, rawBody, now });

    expect(at(secondsAfter(300))).toEqual({ ok: true });
    expect(at(secondsAfter(-300))).toEqual({ ok: true });
    expect(at(secondsAfter(301))).toEqual({ ok: false, reason: 'stale' });
    expect(at(secondsAfter(-301))).toEqual({ ok: false, reason: 'stale' });
  });

  it.each(['', 'abc', '1531420618.5', ' 1531420618', '1e9', '-1531420618', '0x5B4792CA'])('refuses the timestamp %j as stale', (odd) => {
    const result = verifySlackSignature({ signingSecret, timestamp: odd, signature: slackSignature(signingSecret, odd, rawBody), rawBody, now: signedAt });

    expect(result).toEqual({ ok: false, reason: 'stale' });
  });

  it('refuses a changed byte in the body, the signature or the timestamp as a mismatch', () => {
    const flipped = signature.slice(0, -1) + (signature.endsWith('3') ? '4' : '3');

    expect(verifySlackSignature({ signingSecret, timestamp, signature, rawBody: rawBody.replace('foobar', 'foobaz'), now: signedAt })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySlackSignature({ signingSecret, timestamp, signature: flipped, rawBody, now: signedAt })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySlackSignature({ signingSecret, timestamp: '1531420619', signature, rawBody, now: signedAt })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySlackSignature({ signingSecret: `${signingSecret}x`, timestamp, signature, rawBody, now: signedAt })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('never verifies with an empty signing secret, even a signature made with it', () => {
    const result = verifySlackSignature({ signingSecret: '', timestamp, signature: slackSignature('', timestamp, rawBody), rawBody, now: signedAt });

    expect(result).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuses missing headers as missing', () => {
    expect(verifySlackSignature({ signingSecret, timestamp, signature: undefined, rawBody, now: signedAt })).toEqual({ ok: false, reason: 'missing' });
    expect(verifySlackSignature({ signingSecret, timestamp: undefined, signature, rawBody, now: signedAt })).toEqual({ ok: false, reason: 'missing' });
  });

  it.each([
    ['empty', ''],
    ['without version', signature.slice(3)],
    ['another version', `v1=${signature.slice(3)}`],
    ['upper-case hex', signature.toUpperCase().replace('V0=', 'v0=')],
    ['one digit short', signature.slice(0, -1)],
    ['one digit long', `${signature}0`],
    ['not hex', `v0=${'g'.repeat(64)}`],
    ['two signatures', `${signature},${signature}`],
  ])('refuses a malformed signature header (%s) as missing', (_name, malformed) => {
    const result = verifySlackSignature({ signingSecret, timestamp, signature: malformed, rawBody, now: signedAt });

    expect(result).toEqual({ ok: false, reason: 'missing' });
  });

  it('verifies what it signs for any secret, body and clock skew within the window, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, unit: 'grapheme' }),
        fc.string({ unit: 'grapheme' }),
        fc.integer({ min: 0, max: 4_102_444_800 }),
        fc.integer({ min: -300, max: 300 }),
        fc.string({ minLength: 1, unit: 'grapheme' }),
        (secret, body, unixSeconds, skew, extra) => {
          const ts = String(unixSeconds);
          const now = new Date((unixSeconds + skew) * 1000);
          const header = slackSignature(secret, ts, body);

          expect(header).toMatch(/^v0=[0-9a-f]{64}$/);
          expect(verifySlackSignature({ signingSecret: secret, timestamp: ts, signature: header, rawBody: body, now })).toEqual({ ok: true });
          expect(verifySlackSignature({ signingSecret: secret, timestamp: ts, signature: header, rawBody: body + extra, now })).toEqual({ ok: false, reason: 'mismatch' });
          expect(verifySlackSignature({ signingSecret: secret + extra, timestamp: ts, signature: header, rawBody: body, now })).toEqual({ ok: false, reason: 'mismatch' });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses any signature outside the window as stale, however well signed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), fc.integer({ min: 301, max: 1_000_000 }), fc.boolean(), (unixSeconds, distance, early) => {
        const ts = String(unixSeconds);
        const now = new Date((unixSeconds + (early ? -distance : distance)) * 1000);

        const result = verifySlackSignature({ signingSecret, timestamp: ts, signature: slackSignature(signingSecret, ts, rawBody), rawBody, now });

        expect(result).toEqual({ ok: false, reason: 'stale' });
      }),
    );
  });
});
