import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeEmail, messageIdFor } from '#shared/adapters/mail/compose-email';
import { InvalidOutboundEmailError, type OutboundEmail } from '#shared/domain/mailer';
import { addresses, parseEmail } from './parse-email';

const message: OutboundEmail = {
  from: 'Gatehouse Outreach <outreach@gatehouse.example>',
  to: 'ada.moreau@newco.example',
  subject: 'Ada, an idea for NewCo',
  body: 'Hi Ada,\n\nThe audit maps your AI systems in days.\n\nBest,\nJordan\n',
  idempotencyKey: 'apr_01JTEST000000000000000001',
};
const date = new Date('2025-03-03T09:00:00Z');

describe('composeEmail', () => {
  it('writes From, To, Subject, Date, Message-ID and a plain-text utf-8 body', async () => {
    const raw = await composeEmail(message, date);

    const parsed = await parseEmail(raw);
    expect(parsed.from?.value).toEqual([{ name: 'Gatehouse Outreach', address: 'outreach@gatehouse.example' }]);
    expect(addresses(parsed.to)).toEqual(['ada.moreau@newco.example']);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.date?.toISOString()).toBe(date.toISOString());
    expect(parsed.messageId).toBe('<apr_01JTEST000000000000000001@gatehouse.local>');
    expect(parsed.text).toBe(message.body);
    expect(parsed.html).toBe(false);
    expect(parsed.attachments).toEqual([]);
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'text/plain', params: { charset: 'utf-8' } });
  });

  it('derives the Message-ID from the idempotency key, so every attempt has the same one', async () => {
    const [first, second] = await Promise.all([composeEmail(message, date), composeEmail(message, new Date('2026-01-01T00:00:00Z'))]);

    expect((await parseEmail(first)).messageId).toBe(messageIdFor(message.idempotencyKey));
    expect((await parseEmail(second)).messageId).toBe(messageIdFor(message.idempotencyKey));
  });

  it('is byte-for-byte deterministic for the same message and date', async () => {
    expect((await composeEmail(message, date)).equals(await composeEmail(message, date))).toBe(true);
  });

  it('round-trips a utf-8 subject and body, with only 7-bit bytes on the wire', async () => {
    const utf8 = { ...message, subject: 'Grüße aus Zürich — 日本語 ✓', body: 'Héllo Ådå,\n\nça va? 🙂\n' };

    const raw = await composeEmail(utf8, date);

    const parsed = await parseEmail(raw);
    expect(parsed.subject).toBe(utf8.subject);
    expect(parsed.text).toBe(utf8.body);
    expect([...raw].every((byte) => byte < 0x80)).toBe(true);
  });

  it('turns line breaks in the subject into spaces: no header can be injected', async () => {
    const hostile = { ...message, subject: 'Hello\r\nBcc: victim@elsewhere.example\r\nX-Injected: yes\n\nbody' };

    const raw = await composeEmail(hostile, date);

    const parsed = await parseEmail(raw);
    expect(parsed.subject).toBe('Hello Bcc: victim@elsewhere.example X-Injected: yes body');
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.headers.has('x-injected')).toBe(false);
    expect(parsed.text).toBe(message.body);
    const headerBlock = raw.toString('latin1').split('\r\n\r\n')[0];
    expect(headerBlock).not.toMatch(/^(Bcc|X-Injected):/im);
  });

  it('never lets any subject add a header (property)', async () => {
    const lineish = fc.constantFrom('\r', '\n', '\r\n', 'Bcc: eve@elsewhere.example', 'X-Injected: 1', ': ', '=?utf-8?q?', 'é', ' ');
    const allowed = ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type', 'content-transfer-encoding', 'x-gatehouse-loop'];
    const subject = fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), lineish), { maxLength: 12 }).map((parts) => parts.join(''));

    await fc.assert(
      fc.asyncProperty(subject, async (s) => {
        const parsed = await parseEmail(await composeEmail({ ...message, subject: s }, date));
        for (const header of parsed.headers.keys()) expect(allowed).toContain(header);
        expect(parsed.subject ?? '').not.toMatch(/[\r\n]/);
        expect(parsed.text).toBe(message.body);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a recipient with line breaks, several recipients or a display name', async () => {
    for (const to of ['ada@newco.example\r\nBcc: victim@elsewhere.example', 'ada@newco.example, eve@elsewhere.example', 'Ada <ada@newco.example>', 'not-an-address', '']) {
      await expect(composeEmail({ ...message, to }, date), to).rejects.toBeInstanceOf(InvalidOutboundEmailError);
    }
  });

  it('refuses a sender with line breaks and an idempotency key unusable as an id', async () => {
    await expect(composeEmail({ ...message, from: 'a@b.example\r\nBcc: c@d.example' }, date)).rejects.toBeInstanceOf(InvalidOutboundEmailError);
    for (const idempotencyKey of ['', '../escape', 'a/b', 'key with space', '.hidden', 'a>b@c']) {
      await expect(composeEmail({ ...message, idempotencyKey }, date), idempotencyKey).rejects.toBeInstanceOf(InvalidOutboundEmailError);
    }
  });
});
