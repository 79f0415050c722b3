/**
 * The port through which the service sends an approved `mail.send` action. Agents never hold a
 * Mailer: they only ask for approval, and the service executes the approved action.
 */

/** The header on every mail Gatehouse sends: a mail trigger receiving one back starts nothing (no loops). */
export const GATEHOUSE_LOOP_HEADER = 'X-Gatehouse-Loop';

export interface OutboundEmail {
  /** Sender mailbox, e.g. `Gatehouse <outreach@example.com>` (the deployment's `MAIL_FROM`). */
  from: string;
  /** Exactly one recipient address, e.g. `ada@newco.example`. */
  to: string;
  subject: string;
  /** Plain text (sent as text/plain; charset=utf-8). */
  body: string;
  /**
   * The approval id. Sending twice with the same key must not produce two mails where the
   * backend allows it; it also names the message (`Message-ID`), so duplicates are recognisable.
   */
  idempotencyKey: string;
}

export interface Mailer {
  /** Sends one email; `message_id` is the backend's id for it (SES MessageId, or the Message-ID header). */
  send(message: OutboundEmail): Promise<{ message_id: string }>;
}

/** An email that must not be sent as given (it would inject headers or reach other recipients). */
export class InvalidOutboundEmailError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOutboundEmailError';
  }
}

// Safe in a file name and in a Message-ID's left part: ids such as `apr_01J…` fit.
const idempotencyKeyPattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
// One bare addr-spec: no display name, no list, no whitespace or control characters.
const bareAddressPattern = /^[^\s@<>,;:"()[\]\\\u0000-\u001f\u007f]+@[^\s@<>,;:"()[\]\\\u0000-\u001f\u007f]+\.[^\s@<>,;:"()[\]\\\u0000-\u001f\u007f]+$/;
const lineBreaks = /[\r\n\u2028\u2029]/;

/**
 * Checks what the message's headers will carry. Line breaks in `from` or `to`, a `to` that is
 * not one bare address, or an idempotency key unusable as a file name are refused, not repaired:
 * they reach here only through a bug or a hostile edit of the approved action.
 */
export function assertSendable(message: OutboundEmail): void {
  if (!idempotencyKeyPattern.test(message.idempotencyKey)) {
    throw new InvalidOutboundEmailError(`Idempotency key '${message.idempotencyKey}' must match ${idempotencyKeyPattern}.`);
  }
  if (!bareAddressPattern.test(message.to)) {
    throw new InvalidOutboundEmailError('The recipient must be exactly one email address.');
  }
  if (message.from.trim() === '' || lineBreaks.test(message.from)) {
    throw new InvalidOutboundEmailError('The sender must be one line.');
  }
}
