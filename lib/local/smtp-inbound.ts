import { SMTPServer, type SMTPServerDataStream, type SMTPServerError } from 'smtp-server';
import { MAX_INBOUND_MAIL_BYTES } from '#shared/config/inbound-mail';

export interface InboundEnvelope {
  /** MAIL FROM, lowercased; '' for the null sender (bounces). */
  from: string;
  /** RCPT TO addresses, lowercased; all at the server's domain. */
  to: string[];
}

export interface InboundSmtpOptions {
  /** 0 asks the OS for a free port; the bound one is reported back. */
  port: number;
  host?: string;
  domain?: string;
  /** Larger messages are refused with 552 (SIZE is announced in EHLO); MAX_INBOUND_MAIL_BYTES by default. */
  maxBytes?: number;
  /**
   * Called once per accepted message with the raw RFC 5322 bytes, a `Return-Path` line added on top;
   * a throw answers 451, so the sender keeps the mail and retries.
   */
  onMessage: (envelope: InboundEnvelope, raw: Buffer) => Promise<void>;
  log?: (line: string) => void;
  /** How long `close()` lets open sessions finish before cutting them off. */
  closeTimeoutMs?: number;
}

export interface InboundSmtp {
  port: number;
  domain: string;
  close(): Promise<void>;
}

/**
 * The local stand-in for SES receiving: an SMTP server that takes mail for trigger addresses at
 * `domain`, hands each message to `onMessage`, and only says 250 once that has succeeded.
 */
export async function startInboundSmtp(options: InboundSmtpOptions): Promise<InboundSmtp> {
  const { port, host = '127.0.0.1', domain = 'inbound.localhost', maxBytes = MAX_INBOUND_MAIL_BYTES, onMessage, log = () => {} } = options;
  const closeTimeoutMs = options.closeTimeoutMs ?? 2_000;
  const ourDomain = domain.toLowerCase();
  const server = new SMTPServer({
    name: ourDomain,
    banner: `Gatehouse inbound mail for @${ourDomain}`,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: maxBytes,
    rejectOversized: true,
    // Off by default in smtp-server; on, a refusal reads `550 5.1.1 ...` and a failure `451 4.3.0 ...`.
    hideENHANCEDSTATUSCODES: false,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: closeTimeoutMs,
    onRcptTo(address, _session, callback) {
      const recipient = address.address.toLowerCase();
      if (recipient.slice(recipient.lastIndexOf('@') + 1) === ourDomain) return callback();
      callback(smtpError(550, `No such mailbox: this server only accepts mail for @${ourDomain}`));
    },
    onData(stream, session, callback) {
      collect(stream, maxBytes).then(
        async (raw) => {
          if (!raw) return callback(smtpError(552, `Message exceeds the size limit of ${maxBytes} bytes`));
          const envelope: InboundEnvelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          };
          try {
            // As a delivering MTA (and SES) does: the envelope sender on top, so a bounce reads `Return-Path: <>`.
            await onMessage(envelope, Buffer.concat([Buffer.from(`Return-Path: <${envelope.from}>\r\n`), raw]));
            callback();
          } catch (error) {
            log(`inbound smtp: processing failed, answered 451 so the sender retries: ${error instanceof Error ? error.message : String(error)}`);
            callback(smtpError(451, 'Temporary failure processing the message, try again later'));
          }
        },
        (error: unknown) => {
          log(`inbound smtp: reading the message failed: ${error instanceof Error ? error.message : String(error)}`);
          callback(smtpError(451, 'Temporary failure reading the message, try again later'));
        },
      );
    },
  });
  server.on('error', (error) => log(`inbound smtp: ${error.message}`));

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  log(`inbound smtp: listening on ${host}:${boundPort} for @${ourDomain}`);

  let closing: Promise<void> | undefined;
  return {
    port: boundPort,
    domain: ourDomain,
    close: () => {
      // smtp-server cuts open sessions after closeTimeout; the outer bound covers a callback that never comes.
      closing ??= new Promise<void>((resolve) => {
        const fallback = setTimeout(resolve, closeTimeoutMs + 1_000);
        fallback.unref();
        server.close(() => {
          clearTimeout(fallback);
          resolve();
        });
      });
      return closing;
    },
  };
}

/** The whole message, or undefined once it passed `maxBytes` (the rest is read and dropped). */
function collect(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on('data', (chunk: Buffer) => {
      if (stream.sizeExceeded || length + chunk.length > maxBytes) {
        chunks.length = 0;
        length = maxBytes + 1;
        return;
      }
      chunks.push(chunk);
      length += chunk.length;
    });
    stream.once('end', () => resolve(stream.sizeExceeded || length > maxBytes ? undefined : Buffer.concat(chunks, length)));
    stream.once('error', reject);
  });
}

function smtpError(responseCode: number, message: string): SMTPServerError {
  return Object.assign(new Error(message), { responseCode });
}
