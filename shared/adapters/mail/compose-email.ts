import MailComposer from 'nodemailer/lib/mail-composer';
import { assertSendable, GATEHOUSE_LOOP_HEADER, type OutboundEmail } from '#shared/domain/mailer';

/** Domain of the Message-IDs we mint; the left part is the idempotency key, so a resend keeps it. */
export const messageIdDomain = 'gatehouse.local';

/** `<apr_123@gatehouse.local>`: deterministic, so every attempt of one approval has the same id. */
export function messageIdFor(idempotencyKey: string): string {
  return `<${idempotencyKey}@${messageIdDomain}>`;
}

/**
 * Builds the RFC 5322 message (From, To, Subject, Date, Message-ID, text/plain utf-8).
 * Refuses unsafe addresses (see `assertSendable`); a subject's line breaks become spaces, since a
 * human editing the approval may have typed one. `date` is a parameter so tests are exact.
 */
export async function composeEmail(message: OutboundEmail, date: Date = new Date()): Promise<Buffer> {
  assertSendable(message);
  const composer = new MailComposer({
    from: message.from,
    to: message.to,
    subject: message.subject.replace(/[\r\n\u2028\u2029]+/g, ' '),
    text: message.body,
    textEncoding: 'quoted-printable',
    messageId: messageIdFor(message.idempotencyKey),
    date,
    // Marks mail Gatehouse sent: a mail trigger that receives it back starts nothing (no loops).
    headers: { [GATEHOUSE_LOOP_HEADER]: message.idempotencyKey },
  });
  return composer.compile().build();
}
