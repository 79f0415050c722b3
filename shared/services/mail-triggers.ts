import { createHash } from 'node:crypto';
import { mailMessageClaimWrite, triggerRepository, localPartOf } from '#shared/adapters/dynamodb/trigger-repository';
import { tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import type { TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { parseInboundMail, type InboundMail } from '#shared/adapters/mail/inbound-mail';
import { InboundMailTooLargeError } from '#shared/adapters/mail/inbound-store';
import { inboundMailDomain, MAX_INBOUND_MAIL_BYTES } from '#shared/config/inbound-mail';
import { systemClock, type Clock } from '#shared/domain/clock';
import type { TaskSource } from '#shared/domain/task';
import { newId } from '#shared/domain/ids';
import { matchVerdict, type Trigger, type TriggerRun } from '#shared/domain/trigger';
import { logger } from '#shared/observability/logger';
import { execute } from '#shared/services/trigger-execution';

/** Attachments kept with a run: a few, small enough to sit in the table beside it. */
export const MAIL_ATTACHMENT_LIMITS = { maxAttachments: 5, maxAttachmentBytes: 256 * 1024, maxTotalAttachmentBytes: 1024 * 1024 } as const;

/**
 * A mail arrived for `recipients`: each that is a mail trigger's address starts one task (one per
 * trigger and Message-ID, however often the mail is delivered). Automatic mail (auto-replies,
 * bounces, lists, our own) starts nothing, which also breaks loops between agents and mailboxes.
 * The addresses are looked up before the message is even read: mail for no trigger costs two
 * reads, whatever its body. `load` gives the raw message; one over MAX_INBOUND_MAIL_BYTES records
 * a failed run for each trigger (and is not retried: it would never fit).
 */
export async function receiveInboundMail(recipients: readonly string[], load: () => Promise<Buffer>, clock: Clock = systemClock): Promise<TriggerRun[]> {
  const triggers = await mailTriggersOf(recipients);
  if (triggers.length === 0) return [];
  let raw: Buffer;
  try {
    raw = await load();
    if (raw.length > MAX_INBOUND_MAIL_BYTES) throw new InboundMailTooLargeError(raw.length);
  } catch (error) {
    if (!(error instanceof InboundMailTooLargeError)) throw error;
    return Promise.all(triggers.map((trigger) => recordTooLarge(trigger, error, clock)));
  }
  const mail = await parseInboundMail(raw, { ...MAIL_ATTACHMENT_LIMITS, receivedAt: clock.now() });
  if (mail.automated) {
    logger.info('inbound mail ignored: sent automatically', { message_id: mail.message_id, reason: mail.automated.reason });
    return [];
  }
  const runs: TriggerRun[] = [];
  for (const trigger of triggers) {
    const { match } = trigger.source as Extract<Trigger['source'], { type: 'mail' }>;
    const verdict = matchVerdict([[match?.from, mail.from], [match?.subject, mail.subject]]);
    const now = clock.now();
    if ('unusable' in verdict) {
      await triggerRepository.recordRun(trigger.tenant_id, { run_id: newId('run', now.getTime()), trigger_id: trigger.trigger_id, at: now.toISOString(), outcome: 'failed', reason: verdict.unusable });
      continue;
    }
    if (!verdict.matched) continue;
    // One run per Message-ID: a redelivery may carry another Date, so the claim is the Message-ID's own.
    const digest = createHash('sha256').update(mail.message_id).digest('base64url');
    const handled = await triggerRepository.mailMessageRun(trigger.tenant_id, trigger.trigger_id, digest);
    if (handled) {
      const run = await triggerRepository.getRun(trigger.tenant_id, trigger.trigger_id, handled);
      if (run) runs.push(run);
      continue;
    }
    const runId = newId('run', now.getTime());
    if (!trigger.enabled) {
      await triggerRepository.recordRun(trigger.tenant_id, { run_id: runId, trigger_id: trigger.trigger_id, at: now.toISOString(), outcome: 'skipped_disabled', reason: 'the trigger is paused' });
      continue;
    }
    const source: TaskSource = { type: 'mail', trigger_id: trigger.trigger_id, run_id: runId, message_id: mail.message_id, from: mail.from };
    runs.push(await execute(trigger, { run_id: runId, at: now.toISOString(), source, context: mailContext(mail, runId), advance: {}, overlap: false, writes: [mailMessageClaimWrite(trigger.tenant_id, trigger.trigger_id, digest, runId), ...attachmentWrites(trigger.tenant_id, trigger.trigger_id, runId, mail)] }));
  }
  return runs;
}

/** The mail triggers addressed, each once: recipients at another domain or of no trigger are left out. */
async function mailTriggersOf(recipients: readonly string[]): Promise<Trigger[]> {
  const domain = inboundMailDomain();
  const ours = [...new Set(recipients.map((address) => address.toLowerCase()).filter((address) => address.endsWith(`@${domain}`)))];
  const triggers: Trigger[] = [];
  for (const address of ours) {
    const owner = await triggerRepository.ownerOfAddress(localPartOf(address));
    const trigger = owner ? await triggerRepository.get(owner.tenant_id, owner.trigger_id) : undefined;
    if (trigger?.source.type === 'mail') triggers.push(trigger);
    else logger.info('inbound mail for no trigger', { address });
  }
  return triggers;
}

async function recordTooLarge(trigger: Trigger, error: InboundMailTooLargeError, clock: Clock): Promise<TriggerRun> {
  const now = clock.now();
  const run: TriggerRun = { run_id: newId('run', now.getTime()), trigger_id: trigger.trigger_id, at: now.toISOString(), outcome: 'failed', reason: error.message };
  await triggerRepository.recordRun(trigger.tenant_id, run);
  return run;
}

/** What `input_mapping` points into: the mail's fields, and its attachments by id. */
function mailContext(mail: InboundMail, runId: string) {
  return {
    mail: {
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      date: mail.date,
      message_id: mail.message_id,
      attachments: mail.attachments.map((attachment, index) => ({ attachment_id: `${runId}.${index}`, filename: attachment.filename, content_type: attachment.content_type, size: attachment.size })),
      skipped_attachments: mail.skipped_attachments,
    },
  };
}

function attachmentWrites(tenantId: string, triggerId: string, runId: string, mail: InboundMail): TransactItem[] {
  return mail.attachments.map((attachment, index) => ({
    Put: {
      TableName: tableName(),
      Item: { ...keys.mailAttachment(tenantId, triggerId, runId, index), entity: 'mail_attachment', tenant_id: tenantId, run_id: runId, filename: attachment.filename, content_type: attachment.content_type, size: attachment.size, content: attachment.content },
    },
  }));
}
