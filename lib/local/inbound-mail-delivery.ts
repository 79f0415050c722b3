import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SESEvent } from 'aws-lambda';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';
import { startInboundSmtp, type InboundSmtp } from '#lib/local/smtp-inbound';
import { inboundMailDomain } from '#shared/config/inbound-mail';

/** The SES receiving Lambda action's handler, as the stack wires it. */
export const RECEIVE_MAIL_HANDLER = 'functions/mail/receive-mail.ts';

/**
 * Plays SES receiving locally: an SMTP listener takes mail for the inbound domain, stores each
 * message as the receipt rule's S3 action would (here a directory), then invokes the same handler
 * with an SES event. A handler failure answers 451, so the sender keeps the mail and retries.
 */
export async function startInboundMailDelivery(options: { port: number; dir: string; log: (line: string) => void }): Promise<InboundSmtp> {
  await mkdir(options.dir, { recursive: true });
  return startInboundSmtp({
    port: options.port,
    domain: inboundMailDomain(),
    log: options.log,
    onMessage: async (envelope, raw) => {
      const messageId = `${Date.now().toString(36)}${randomBytes(8).toString('hex')}`;
      await writeFile(join(options.dir, `${messageId}.eml`), raw);
      const handler = await loadHandler(RECEIVE_MAIL_HANDLER);
      await handler(sesEvent(messageId, envelope), lambdaContext('receive-mail', 30));
    },
  });
}

/** The parts of SES's Lambda event the handler reads, shaped as SES sends them. */
function sesEvent(messageId: string, envelope: { from: string; to: string[] }): SESEvent {
  const timestamp = new Date().toISOString();
  const verdict = { status: 'PASS' };
  return {
    Records: [
      {
        eventSource: 'aws:ses',
        eventVersion: '1.0',
        ses: {
          mail: { timestamp, source: envelope.from, messageId, destination: envelope.to, headersTruncated: false, headers: [], commonHeaders: { returnPath: envelope.from, date: timestamp, messageId } },
          receipt: { timestamp, processingTimeMillis: 0, recipients: envelope.to, spamVerdict: verdict, virusVerdict: verdict, spfVerdict: verdict, dkimVerdict: verdict, dmarcVerdict: verdict, action: { type: 'Lambda', functionArn: 'arn:aws:lambda:local:000000000000:function:receive-mail', invocationType: 'Event' } },
        },
      },
    ],
  } as unknown as SESEvent;
}
