import type { Context, SESEvent } from 'aws-lambda';
import { readInboundMessage } from '#shared/adapters/mail/inbound-store';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { receiveInboundMail } from '#shared/services/mail-triggers';

/**
 * SES receiving's Lambda action (after its S3 action stored the message): each mail to a mail
 * trigger's address starts its task. Spam and viruses SES flagged start nothing; mail for no
 * trigger is never read; a message over 10 MiB is not read either and records a failed run
 * (no retry). Any other failure throws, and Lambda retries the event; the stored message and the
 * run's id make a retry safe.
 */
export const handler = observedHandler(async (event: SESEvent, context: Context): Promise<void> => {
  void context;
  for (const record of event.Records) {
    const { mail, receipt } = record.ses;
    await observeRecord({ message_id: mail.messageId }, async () => {
      if (receipt.spamVerdict?.status === 'FAIL' || receipt.virusVerdict?.status === 'FAIL') {
        logger.info('inbound mail dropped: SES flagged it', { spam: receipt.spamVerdict?.status, virus: receipt.virusVerdict?.status });
        return;
      }
      const runs = await receiveInboundMail(receipt.recipients, () => readInboundMessage(mail.messageId));
      if (runs.length > 0) logger.info('mail triggers ran', { runs: runs.map((run) => ({ trigger_id: run.trigger_id, run_id: run.run_id, outcome: run.outcome, task_id: run.task_id })) });
    });
  }
});
