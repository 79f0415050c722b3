import { defineEntity, indexKey, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const triggerPartition = (tenantId: string, triggerId: string) => `${tenant(tenantId)}#TRIGGER#${triggerId}`;
const triggersPartition = (tenantId: string) => `${tenant(tenantId)}#TRIGGERS`;

/**
 * A trigger, listed per tenant newest first. Its partition also holds its runs (sorted by run id:
 * by time) and the references to the tasks it started (entities/session.ts `taskOfOrigin`).
 */
export const triggerEntity = defineEntity({
  entity: 'trigger',
  tenantScoped: true,
  keys: {
    trigger: (tenantId: string, triggerId: string): Key => ({ pk: triggerPartition(tenantId, triggerId), sk: 'TRIGGER' }),
    triggerListing: (tenantId: string, triggerId: string) => indexKey('gsi1', triggersPartition(tenantId), triggerId),
    triggersPartition,
    triggerPartition,
  },
  primaryKey: 'trigger',
  indexes: [{ index: 'gsi1', key: 'triggerListing', copies: 'ALL' }],
});

/** One run of a trigger: a task it started, or why it started none. Written once (its id is its claim). */
export const triggerRunEntity = defineEntity({
  entity: 'trigger_run',
  tenantScoped: true,
  keys: {
    triggerRun: (tenantId: string, triggerId: string, runId: string): Key => ({ pk: triggerPartition(tenantId, triggerId), sk: `RUN#${runId}` }),
  },
  primaryKey: 'triggerRun',
  indexes: [],
});

/**
 * Which trigger an inbound mail address belongs to, by its local part alone: mail arrives with no
 * tenant. Written with the mail trigger (or its change to mail) and deleted with it.
 */
export const inboundAddressEntity = defineEntity({
  entity: 'inbound_address',
  tenantScoped: false,
  keys: {
    inboundAddress: (localPart: string): Key => ({ pk: `INBOUND_MAIL#${localPart}`, sk: 'ADDRESS' }),
  },
  primaryKey: 'inboundAddress',
  indexes: [],
});

/** An attachment of the mail a run of a mail trigger received, kept bounded beside the run. */
export const mailAttachmentEntity = defineEntity({
  entity: 'mail_attachment',
  tenantScoped: true,
  keys: {
    mailAttachment: (tenantId: string, triggerId: string, runId: string, index: number): Key => ({ pk: triggerPartition(tenantId, triggerId), sk: `ATTACHMENT#${runId}#${index}` }),
  },
  primaryKey: 'mailAttachment',
  indexes: [],
});

/**
 * A mail a mail trigger handled, by its Message-ID (hashed): put with the run's task, so the same
 * mail delivered again (a retrying server, a second forward with a new Date) starts nothing.
 */
export const mailMessageClaimEntity = defineEntity({
  entity: 'mail_message_claim',
  tenantScoped: true,
  keys: {
    mailMessageClaim: (tenantId: string, triggerId: string, messageDigest: string): Key => ({ pk: triggerPartition(tenantId, triggerId), sk: `MAIL#${messageDigest}` }),
  },
  primaryKey: 'mailMessageClaim',
  indexes: [],
});
