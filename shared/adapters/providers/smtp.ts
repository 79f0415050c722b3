import nodemailer from 'nodemailer';
import { composeEmail, messageIdFor } from '#shared/adapters/mail/compose-email';
import { assertSendable, type Mailer, type OutboundEmail } from '#shared/domain/mailer';
import { ProviderFailure } from '#shared/domain/provider-failure';
import type { SmtpCredentials } from '#shared/domain/integration';
import type { PinnedTarget } from '#shared/adapters/http/ssrf-guard';

const TIMEOUT_MS = 10_000;

/**
 * nodemailer's SMTP transport over the tenant's server: STARTTLS when offered, TLS from the start
 * with `secure`. With `pin` it connects to the vetted address, the certificate still checked for the host name.
 */
function transport(credentials: SmtpCredentials, pin?: PinnedTarget) {
  return nodemailer.createTransport({
    host: pin?.address ?? credentials.host,
    ...(pin ? { tls: { servername: pin.hostname } } : {}),
    port: credentials.port,
    secure: credentials.secure,
    ...(credentials.username ? { auth: { user: credentials.username, pass: credentials.password ?? '' } } : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    logger: false,
  });
}

/** nodemailer's errors in the proxy's terms: 535/EAUTH refuses the credentials, 4xx and network errors pass. */
export function smtpFailure(error: unknown): ProviderFailure {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  const message = error instanceof Error ? error.message : String(error);
  if (responseCode === 535 || responseCode === 534 || code === 'EAUTH') return new ProviderFailure('credentials_refused', `The mail server refused the login (${responseCode ?? code}).`, String(responseCode ?? code));
  if (typeof responseCode === 'number' && responseCode >= 400 && responseCode < 500) return new ProviderFailure('transient', `The mail server answered ${responseCode}: ${message}`, String(responseCode));
  if (typeof responseCode === 'number' && responseCode >= 500) return new ProviderFailure('rejected', `The mail server answered ${responseCode}: ${message}`, String(responseCode));
  return new ProviderFailure('transient', `The mail server could not be reached: ${message}`, code);
}

/** The connect-time check: connect and log in (nodemailer `verify`). */
export async function verifySmtp(credentials: SmtpCredentials, pin?: PinnedTarget): Promise<void> {
  const smtp = transport(credentials, pin);
  try {
    await smtp.verify();
  } catch (error) {
    throw smtpFailure(error);
  } finally {
    smtp.close();
  }
}

/**
 * Sends through the tenant's SMTP server. The Message-ID is derived from the idempotency key (the
 * approval id), so a retry after an unrecorded send is recognisable as the same mail downstream.
 */
export class SmtpMailer implements Mailer {
  constructor(
    private readonly credentials: SmtpCredentials,
    private readonly pin?: PinnedTarget,
  ) {}

  async send(message: OutboundEmail): Promise<{ message_id: string }> {
    assertSendable(message);
    const raw = await composeEmail(message);
    const smtp = transport(this.credentials, this.pin);
    try {
      await smtp.sendMail({ envelope: { from: addressOf(message.from), to: [message.to] }, raw });
      return { message_id: messageIdFor(message.idempotencyKey) };
    } catch (error) {
      throw smtpFailure(error);
    } finally {
      smtp.close();
    }
  }
}

/** `Name <a@b>` → `a@b`, for the envelope. */
function addressOf(mailbox: string): string {
  return /<([^<>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox.trim();
}
