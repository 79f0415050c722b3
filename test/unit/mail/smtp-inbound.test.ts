import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { parseInboundMail } from '#shared/adapters/mail/inbound-mail';
import { startInboundSmtp, type InboundEnvelope, type InboundSmtp } from '#lib/local/smtp-inbound';

interface Received {
  envelope: InboundEnvelope;
  raw: Buffer;
}

let server: InboundSmtp | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: { maxBytes?: number; fail?: () => boolean } = {}): Promise<{ smtp: InboundSmtp; received: Received[]; log: string[] }> {
  const received: Received[] = [];
  const log: string[] = [];
  server = await startInboundSmtp({
    port: 0,
    maxBytes: options.maxBytes,
    closeTimeoutMs: 200,
    log: (line) => log.push(line),
    onMessage: async (envelope, raw) => {
      if (options.fail?.()) throw new Error('queue unavailable');
      received.push({ envelope, raw });
    },
  });
  return { smtp: server, received, log };
}

function send(smtp: InboundSmtp, mail: { to: string; text?: string; envelopeFrom?: string }) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    ignoreTLS: true,
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 5_000,
  });
  const envelope = mail.envelopeFrom === undefined ? undefined : { from: mail.envelopeFrom, to: mail.to };
  return transport
    .sendMail({ from: 'Ada@NewCo.example', to: mail.to, subject: 'Run the report', text: mail.text ?? 'Please run it.', envelope })
    .finally(() => transport.close());
}

/** What the server says first on a bare connection, or a rejection when nobody answers. */
function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(5_000, () => socket.destroy(new Error('no greeting')));
    socket.once('data', (data) => {
      socket.end();
      resolve(data.toString());
    });
    socket.once('error', reject);
  });
}

describe('startInboundSmtp', () => {
  it('hands a message for an address at its domain to onMessage, then answers 250', async () => {
    const { smtp, received } = await start();

    const info = await send(smtp, { to: 'TRG_01jtest@inbound.localhost' });

    expect(info.response).toMatch(/^250 /);
    expect(info.accepted).toEqual(['TRG_01jtest@inbound.localhost']);
    expect(received).toHaveLength(1);
    expect(received[0].envelope).toEqual({ from: 'ada@newco.example', to: ['trg_01jtest@inbound.localhost'] });
    expect(received[0].raw.toString()).toMatch(/^Return-Path: <ada@newco\.example>\r\n/);
    expect(received[0].raw.toString()).toContain('Subject: Run the report');
    expect(received[0].raw.toString()).toContain('Please run it.');
  });

  it('marks a bounce (null sender) with an empty Return-Path, which the parser flags as automated', async () => {
    const { smtp, received } = await start();

    await send(smtp, { to: 'trg_1@inbound.localhost', envelopeFrom: '' });

    expect(received[0].envelope.from).toBe('');
    expect((await parseInboundMail(received[0].raw)).automated).toEqual({ reason: 'Return-Path: <>' });
  });

  it('refuses a recipient at another domain with 550 5.1.1', async () => {
    const { smtp, received } = await start();

    const error = await send(smtp, { to: 'someone@elsewhere.example' }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ responseCode: 550 });
    expect(String((error as Error).message)).toMatch(/550 5\.1\.1 No such mailbox: this server only accepts mail for @inbound\.localhost/);
    expect(received).toEqual([]);
  });

  it('refuses a message over maxBytes with 552 and does not hand it on', async () => {
    const { smtp, received } = await start({ maxBytes: 2_048 });

    const error = await send(smtp, { to: 'trg_1@inbound.localhost', text: 'x'.repeat(10_000) }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ responseCode: 552 });
    expect(String((error as Error).message)).toMatch(/552 5\.3\.4 /);
    expect(received).toEqual([]);
  });

  it('answers 451 when onMessage fails, so the sender keeps the mail and retries', async () => {
    let failures = 1;
    const { smtp, received, log } = await start({ fail: () => failures-- > 0 });

    const error = await send(smtp, { to: 'trg_1@inbound.localhost' }).catch((caught: unknown) => caught);
    const retry = await send(smtp, { to: 'trg_1@inbound.localhost' });

    expect(error).toMatchObject({ responseCode: 451 });
    expect(String((error as Error).message)).toMatch(/451 4\.3\.0 Temporary failure/);
    expect(log.some((line) => line.includes('queue unavailable'))).toBe(true);
    expect(retry.response).toMatch(/^250 /);
    expect(received).toHaveLength(1);
  });

  it('greets with its banner and closes promptly even with a session left open', async () => {
    const { smtp } = await start();
    const idle = connect(smtp.port, '127.0.0.1');
    idle.on('error', () => {});
    const banner = await greeting(smtp.port);

    const startedAt = Date.now();
    await smtp.close();
    await smtp.close();

    expect(banner).toMatch(/^220 .*Gatehouse inbound mail for @inbound\.localhost/);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    await expect(greeting(smtp.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    idle.destroy();
  });
});
