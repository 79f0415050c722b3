import fc from 'fast-check';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { describe, expect, it } from 'vitest';
import { automatedReason, GATEHOUSE_LOOP_HEADER, parseInboundMail, type InboundMail } from '#shared/adapters/mail/inbound-mail';

const date = new Date('2025-03-03T09:00:00Z');
const receivedAt = new Date('2025-03-04T10:00:00Z');

function compose(options: Partial<Mail.Options> = {}): Promise<Buffer> {
  return new MailComposer({
    from: 'Ada Moreau <Ada.Moreau@NewCo.example>',
    to: 'trg_01jtest000000000000000001@inbound.localhost',
    subject: 'Quarterly report',
    text: 'Hi,\n\nthe report is attached.\n\nAda\n',
    messageId: '<m1@newco.example>',
    date,
    ...options,
  })
    .compile()
    .build();
}

/** A message written out by hand, for headers MailComposer would add or encode itself. */
function handWritten(headers: string[], body = 'Hello.'): string {
  return [...headers, 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n');
}

const encodedWord = (text: string) => `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const oneLineFields = (mail: InboundMail) => [mail.from, mail.from_name ?? '', ...mail.to, mail.subject, mail.message_id, mail.in_reply_to ?? ''];

describe('parseInboundMail', () => {
  it('reads a plain text mail into the task context fields', async () => {
    const raw = await compose();

    const mail = await parseInboundMail(raw, { receivedAt });

    expect(mail).toEqual({
      from: 'ada.moreau@newco.example',
      from_name: 'Ada Moreau',
      to: ['trg_01jtest000000000000000001@inbound.localhost'],
      subject: 'Quarterly report',
      text: 'Hi,\n\nthe report is attached.\n\nAda\n',
      text_truncated: false,
      date: date.toISOString(),
      message_id: 'm1@newco.example',
      automated: false,
      attachments: [],
      skipped_attachments: [],
    });
  });

  it('gives a plain text version of an HTML-only mail', async () => {
    const raw = await compose({ text: undefined, html: '<html><body><h1>Status</h1><p>All <b>green</b> &amp; calm.</p></body></html>' });

    const mail = await parseInboundMail(raw);

    expect(mail.text).toContain('All green & calm.');
    expect(mail.text).not.toMatch(/<[a-z/]/i);
  });

  it('reduces a large HTML body to text', async () => {
    const filler = '<p>filler text</p>'.repeat(120_000);
    const raw = await compose({ text: undefined, html: `<div>Start &lt;here&gt;</div><style>p{}</style>${filler}` });

    const mail = await parseInboundMail(raw);

    expect(mail.text.startsWith('Start <here>\n')).toBe(true);
    expect(mail.text).not.toContain('<p>');
    expect(mail.text).not.toContain('p{}');
  });

  it('caps the text and says so', async () => {
    const raw = await compose({ text: 'x'.repeat(50) });

    const mail = await parseInboundMail(raw, { maxTextChars: 10 });

    expect(mail.text).toBe('x'.repeat(10));
    expect(mail.text_truncated).toBe(true);
  });

  it('keeps attachments within the bounds with their content', async () => {
    const raw = await compose({
      attachments: [
        { filename: 'report.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' },
        { filename: '../../etc/passwd', content: Buffer.from([0, 1, 2, 3]), contentType: 'application/octet-stream' },
      ],
    });

    const mail = await parseInboundMail(raw);

    expect(mail.attachments).toEqual([
      { filename: 'report.csv', content_type: 'text/csv', size: 8, content: Buffer.from('a,b\n1,2\n') },
      { filename: '_.._etc_passwd', content_type: 'application/octet-stream', size: 4, content: Buffer.from([0, 1, 2, 3]) },
    ]);
    expect(mail.skipped_attachments).toEqual([]);
  });

  it('lists attachments beyond the count, size and total bounds without their content', async () => {
    const file = (name: string, bytes: number) => ({ filename: name, content: Buffer.alloc(bytes, 7), contentType: 'application/octet-stream' });
    const raw = await compose({ attachments: [file('a.bin', 40), file('big.bin', 120), file('b.bin', 40), file('c.bin', 40), file('d.bin', 10), file('e.bin', 10)] });

    const mail = await parseInboundMail(raw, { maxAttachments: 3, maxAttachmentBytes: 100, maxTotalAttachmentBytes: 90 });

    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(['a.bin', 'b.bin', 'd.bin']);
    expect(mail.skipped_attachments).toEqual([
      { filename: 'big.bin', size: 120, reason: 'attachment_too_large' },
      { filename: 'c.bin', size: 40, reason: 'total_size_exceeded' },
      { filename: 'e.bin', size: 10, reason: 'too_many_attachments' },
    ]);
  });

  it('skips an attachment over the default 5 MiB', async () => {
    const raw = await compose({ attachments: [{ filename: 'huge.bin', content: Buffer.alloc(5 * 1024 * 1024 + 1) }] });

    const mail = await parseInboundMail(raw);

    expect(mail.attachments).toEqual([]);
    expect(mail.skipped_attachments).toEqual([{ filename: 'huge.bin', size: 5 * 1024 * 1024 + 1, reason: 'attachment_too_large' }]);
  });

  it('derives a stable Message-ID from the raw message when there is none', async () => {
    const raw = handWritten(['From: a@x.example', 'To: t@inbound.localhost', 'Subject: no id']);

    const [first, again, other] = await Promise.all([parseInboundMail(raw), parseInboundMail(raw), parseInboundMail(`${raw}more`)]);

    expect(first.message_id).toMatch(/^sha256-[0-9a-f]{64}@gatehouse\.local$/);
    expect(again.message_id).toBe(first.message_id);
    expect(other.message_id).not.toBe(first.message_id);
  });

  it('uses the received time when the Date header is missing or unreadable', async () => {
    const missing = handWritten(['From: a@x.example', 'To: t@inbound.localhost']);
    const unreadable = handWritten(['From: a@x.example', 'To: t@inbound.localhost', 'Date: the day after tomorrow']);

    expect((await parseInboundMail(missing, { receivedAt })).date).toBe(receivedAt.toISOString());
    expect((await parseInboundMail(unreadable, { receivedAt })).date).toBe(receivedAt.toISOString());
  });

  it('collects To and Cc addresses, groups included, lowercased and each once', async () => {
    const raw = handWritten([
      'From: a@x.example',
      'To: Trigger <TRG_1@Inbound.Localhost>, b@x.example, Team: c@x.example, d@x.example;',
      'Cc: trg_1@inbound.localhost, E@Y.example',
    ]);

    const mail = await parseInboundMail(raw);

    expect(mail.to).toEqual(['trg_1@inbound.localhost', 'b@x.example', 'c@x.example', 'd@x.example', 'e@y.example']);
  });

  it('decodes an RFC 2047 subject and keeps In-Reply-To without brackets', async () => {
    const raw = handWritten(['From: a@x.example', `Subject: ${encodedWord('Grüße – Bericht ✓')}`, 'In-Reply-To: <apr_1@gatehouse.local>']);

    const mail = await parseInboundMail(raw);

    expect(mail.subject).toBe('Grüße – Bericht ✓');
    expect(mail.in_reply_to).toBe('apr_1@gatehouse.local');
  });

  it('keeps header values on one line when encoded words carry line breaks', async () => {
    const raw = handWritten([
      `From: ${encodedWord('Eve\r\nBcc: victim@x.example')} <eve@x.example>`,
      'To: t@inbound.localhost',
      `Subject: ${encodedWord('Hello\r\nBcc: victim@x.example\u2028X-Evil: 1')}`,
      `Message-ID: ${encodedWord('<id\r\nX-Evil: 1@x.example>')}`,
    ]);

    const mail = await parseInboundMail(raw);

    expect(mail.subject).toBe('Hello Bcc: victim@x.example X-Evil: 1');
    expect(mail.from_name).toBe('Eve Bcc: victim@x.example');
    for (const field of oneLineFields(mail)) expect(field).not.toMatch(/[\r\n\u2028\u2029]/);
  });

  it('keeps any encoded subject to one bounded line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 1_200 }), async (subject) => {
        const mail = await parseInboundMail(handWritten(['From: a@x.example', `Subject: ${encodedWord(subject)}`]));

        expect(mail.subject).not.toMatch(/[\u0000-\u001f\u007f\u2028\u2029]/);
        expect(mail.subject.length).toBeLessThanOrEqual(998);
      }),
      { numRuns: 50 },
    );
  });
});

describe('automatedReason', () => {
  it.each([
    [`${GATEHOUSE_LOOP_HEADER}: trg_1`, GATEHOUSE_LOOP_HEADER],
    ['Auto-Submitted: auto-replied', 'Auto-Submitted'],
    ['Auto-Submitted: auto-generated; owner-email="x@y.example"', 'Auto-Submitted'],
    ['Precedence: bulk', 'Precedence'],
    ['Precedence: junk', 'Precedence'],
    ['Precedence: list', 'Precedence'],
    ['Precedence: auto_reply', 'Precedence'],
    ['X-Autoreply: yes', 'X-Autoreply'],
    ['X-Autorespond: Out of office', 'X-Autorespond'],
    ['X-Auto-Response-Suppress: All', 'X-Auto-Response-Suppress'],
    ['X-Auto-Response-Suppress: DR, OOF', 'X-Auto-Response-Suppress'],
    ['X-Auto-Response-Suppress: AutoReply', 'X-Auto-Response-Suppress'],
    ['List-Id: Announcements <announce.x.example>', 'List-Id'],
    ['List-Unsubscribe: <mailto:leave@x.example>', 'List-Unsubscribe'],
    ['Return-Path: <>', 'Return-Path'],
  ])('flags %s', async (header, name) => {
    const raw = handWritten(['From: a@x.example', 'To: t@inbound.localhost', header, 'Subject: hi']);

    const mail = await parseInboundMail(raw);

    expect(mail.automated).toEqual({ reason: expect.stringContaining(`${name}:`) });
  });

  it.each([['Auto-Submitted: no'], ['Precedence: first-class'], ['X-Auto-Response-Suppress: DR, RN'], ['Return-Path: <a@x.example>']])(
    'does not flag %s',
    async (header) => {
      const raw = handWritten(['From: a@x.example', 'To: t@inbound.localhost', header]);

      expect((await parseInboundMail(raw)).automated).toBe(false);
    },
  );

  it('does not flag a mail a person wrote', async () => {
    expect((await parseInboundMail(await compose())).automated).toBe(false);
  });

  it('reads header lists in the SES notification shape, names in any case', () => {
    expect(automatedReason([{ name: 'from', value: 'a@x.example' }, { name: 'auto-submitted', value: 'auto-replied' }])).toEqual({
      reason: 'Auto-Submitted: auto-replied',
    });
    expect(automatedReason([{ name: 'From', value: 'a@x.example' }])).toBe(false);
  });
});
