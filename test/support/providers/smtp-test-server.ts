import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

/**
 * A loopback SMTP server (the `smtp-server` package) for tests that send with the real
 * nodemailer: AUTH PLAIN/LOGIN against `state.users`, enhanced status codes as SES and Gmail
 * send them (`535 5.7.8` for a bad login), a size limit, and every accepted message kept raw.
 */

export interface ReceivedMail {
  /** Envelope sender (MAIL FROM), not the From header. */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** The message as sent after DATA, headers and body; parse it with mailparser's `simpleParser`. */
  raw: string;
  authUser?: string;
  /** Whether the session had been upgraded with STARTTLS. */
  secure: boolean;
}

export interface SmtpTestState {
  users: Map<string, string>;
  messages: ReceivedMail[];
  /** The next `count` messages are refused at the end of DATA with `code` (451 transient, 550 permanent). */
  failNext(count: number, code: number, message?: string): void;
}

export interface SmtpTestServerOptions {
  users?: Record<string, string>;
  /** Accept mail without AUTH; false unless told, so a client that skips auth gets 530. */
  authOptional?: boolean;
  /** Offer STARTTLS with smtp-server's built-in self-signed certificate (clients need `rejectUnauthorized: false`). */
  tls?: boolean;
  /** Largest message in bytes, advertised in EHLO and enforced with 552; 10 MiB unless told. */
  size?: number;
}

export interface SmtpTestServer {
  host: '127.0.0.1';
  port: number;
  state: SmtpTestState;
  close(): Promise<void>;
}

function smtpError(code: number, message: string): SMTPServerError {
  return Object.assign(new Error(message), { responseCode: code });
}

/** Starts the server on 127.0.0.1 (random port), with the users of `options`. */
export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const failures: Array<{ code: number; message?: string }> = [];
  const state: SmtpTestState = {
    users: new Map(Object.entries(options.users ?? {})),
    messages: [],
    failNext(count, code, message) {
      for (let i = 0; i < count; i += 1) failures.push({ code, message });
    },
  };

  const server = new SMTPServer({
    name: 'smtp.test.invalid',
    // No TLS unless asked, so AUTH has to be allowed over plain text (loopback only).
    disabledCommands: options.tls ? [] : ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: options.authOptional ?? false,
    size: options.size ?? 10 * 1024 * 1024,
    rejectOversized: true,
    hideENHANCEDSTATUSCODES: false,
    disableReverseLookup: true,
    // Silences smtp-server, including its stderr warning about the built-in certificate.
    logger: false,
    // Idle clients (a pooled transport) are cut this soon after close() instead of after 30 s.
    closeTimeout: 200,
    onAuth(auth, _session, callback) {
      const expected = auth.username === undefined ? undefined : state.users.get(auth.username);
      if (expected === undefined || expected !== auth.password) {
        callback(smtpError(535, 'Authentication credentials invalid'));
        return;
      }
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        // smtp-server itself answers 552 for an oversized message (rejectOversized); keep nothing then.
        if (stream.sizeExceeded) return callback(smtpError(552, 'Message exceeds fixed maximum message size'));
        const failure = failures.shift();
        if (failure) return callback(smtpError(failure.code, failure.message ?? (failure.code < 500 ? 'Temporary local problem, try again later' : 'Message rejected')));
        state.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          ...(typeof session.user === 'string' ? { authUser: session.user } : {}),
          secure: session.secure,
        });
        callback(null, `OK: queued as ${state.messages.length}`);
      });
    },
  });
  server.on('error', () => {
    // A client dropping its connection is no failure of the server; smtp-server reports it here.
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
