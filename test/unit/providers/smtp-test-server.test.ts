import { simpleParser } from 'mailparser';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpTestServer, type SmtpTestServer } from '../../support/providers/smtp-test-server.ts';

// The real nodemailer SMTP transport against the loopback SMTP server: if these pass, the app's
// SMTP mailer can be tested end to end without a mail provider.

const USER = 'gatehouse@example.com';
const PASSWORD = 'correct horse battery staple';
const SMALL_LIMIT = 64 * 1024;

/** An application's transport: plain SMTP (no TLS), bounded timeouts so a failure cannot hang a test. */
function transport(server: SmtpTestServer, auth: { user: string; pass: string } | null = { user: USER, pass: PASSWORD }, tls: { requireTLS?: boolean } = {}) {
  return createTransport({
    host: server.host,
    port: server.port,
    secure: false,
    ...(auth ? { auth } : {}),
    ...(tls.requireTLS ? { requireTLS: true, tls: { rejectUnauthorized: false } } : {}),
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 5_000,
  });
}

function mail(overrides: Record<string, unknown> = {}) {
  return {
    from: '"Gatehouse" <gatehouse@example.com>',
    to: ['alice@example.com', 'bob@example.com'],
    subject: 'Approval needed: deploy',
    text: 'Task deploy waits for your approval.',
    messageId: '<appr_1.1732700000@gatehouse.example.com>',
    ...overrides,
  };
}

describe('plain SMTP with AUTH', () => {
  let smtp: SmtpTestServer;

  beforeAll(async () => {
    smtp = await startSmtpTestServer({ users: { [USER]: PASSWORD }, size: SMALL_LIMIT });
  });

  afterAll(async () => {
    await smtp.close();
  });

  beforeEach(() => {
    smtp.state.messages.length = 0;
  });

  it('verifies good credentials', async () => {
    await expect(transport(smtp).verify()).resolves.toBe(true);
  });

  it('fails verify on bad credentials with 535 5.7.8', async () => {
    const error = await transport(smtp, { user: USER, pass: 'wrong' }).verify().catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: 'EAUTH', responseCode: 535, response: '535 5.7.8 Authentication credentials invalid' });
  });

  it('delivers a message with its envelope, headers, body and the caller’s Message-ID', async () => {
    const info = await transport(smtp).sendMail(mail());

    expect(info.accepted).toEqual(['alice@example.com', 'bob@example.com']);
    expect(info.messageId).toBe('<appr_1.1732700000@gatehouse.example.com>');
    expect(smtp.state.messages).toHaveLength(1);
    const [received] = smtp.state.messages;
    expect(received).toMatchObject({ from: 'gatehouse@example.com', to: ['alice@example.com', 'bob@example.com'], authUser: USER, secure: false });
    const parsed = await simpleParser(received.raw);
    expect(parsed.subject).toBe('Approval needed: deploy');
    expect(parsed.messageId).toBe('<appr_1.1732700000@gatehouse.example.com>');
    expect(parsed.from?.value).toEqual([{ name: 'Gatehouse', address: 'gatehouse@example.com' }]);
    expect(parsed.text?.trim()).toBe('Task deploy waits for your approval.');
  });

  it('refuses mail from a client that did not authenticate with 530', async () => {
    await expect(transport(smtp, null).sendMail(mail())).rejects.toMatchObject({ responseCode: 530 });
    expect(smtp.state.messages).toEqual([]);
  });

  it('refuses the next messages with an injected 451 or 550, then accepts again', async () => {
    smtp.state.failNext(1, 451);
    smtp.state.failNext(1, 550, 'Mailbox unavailable');

    await expect(transport(smtp).sendMail(mail())).rejects.toMatchObject({ code: 'EMESSAGE', responseCode: 451, response: expect.stringMatching(/^451 4\.3\.0 /) });
    await expect(transport(smtp).sendMail(mail())).rejects.toMatchObject({ responseCode: 550, response: '550 5.1.1 Mailbox unavailable' });
    await expect(transport(smtp).sendMail(mail())).resolves.toMatchObject({ accepted: ['alice@example.com', 'bob@example.com'] });
    expect(smtp.state.messages).toHaveLength(1);
  });

  it('refuses a message over the size limit with 552', async () => {
    await expect(transport(smtp).sendMail(mail({ text: 'x'.repeat(SMALL_LIMIT * 2) }))).rejects.toMatchObject({ responseCode: 552 });
    expect(smtp.state.messages).toEqual([]);
  });
});

describe('STARTTLS when enabled', () => {
  let smtp: SmtpTestServer;

  beforeAll(async () => {
    smtp = await startSmtpTestServer({ users: { [USER]: PASSWORD }, tls: true });
  });

  afterAll(async () => {
    await smtp.close();
  });

  it('upgrades the session before AUTH and records it as secure', async () => {
    await transport(smtp, { user: USER, pass: PASSWORD }, { requireTLS: true }).sendMail(mail());

    expect(smtp.state.messages).toEqual([expect.objectContaining({ authUser: USER, secure: true })]);
  });
});
