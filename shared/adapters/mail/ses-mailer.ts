import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer, OutboundEmail } from '#shared/domain/mailer';
import { composeEmail } from './compose-email';
import { sesClient } from './ses-client';

/**
 * Sends through Amazon SES v2 as a raw MIME message, so the Message-ID derived from the
 * idempotency key travels with the mail.
 *
 * SES has no idempotency token: execution is at-least-once. A crash between SES accepting the
 * mail and the caller recording `tool_call.executed` (which it does right after `send` returns)
 * makes a retry send it again. The shared Message-ID lets the recipient's client thread or drop
 * the duplicate; the window is one request long.
 */
export class SesMailer implements Mailer {
  constructor(private readonly client: () => SESv2Client = sesClient) {}

  async send(message: OutboundEmail): Promise<{ message_id: string }> {
    const raw = await composeEmail(message);
    const result = await this.client().send(
      new SendEmailCommand({
        FromEmailAddress: message.from,
        // Explicit, so SES delivers to exactly the approved recipient whatever the headers say.
        Destination: { ToAddresses: [message.to] },
        Content: { Raw: { Data: raw } },
      }),
    );
    if (!result.MessageId) throw new Error('SES accepted the email but returned no MessageId.');
    return { message_id: result.MessageId };
  }
}
