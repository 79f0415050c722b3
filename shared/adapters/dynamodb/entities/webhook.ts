import { defineEntity, indexKey, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const webhookPartition = (tenantId: string, webhookId: string) => `${tenant(tenantId)}#WEBHOOK#${webhookId}`;
const webhooksPartition = (tenantId: string) => `${tenant(tenantId)}#WEBHOOKS`;
const deliveriesPartition = (tenantId: string, webhookId: string) => `${webhookPartition(tenantId, webhookId)}#DELIVERIES`;

/** A webhook subscription, listed per tenant. */
export const webhookEntity = defineEntity({
  entity: 'webhook',
  tenantScoped: true,
  keys: {
    webhook: (tenantId: string, webhookId: string): Key => ({ pk: webhookPartition(tenantId, webhookId), sk: 'WEBHOOK' }),
    webhookListing: (tenantId: string, webhookId: string) => indexKey('gsi1', webhooksPartition(tenantId), webhookId),
    webhooksPartition,
  },
  primaryKey: 'webhook',
  indexes: [{ index: 'gsi1', key: 'webhookListing', copies: 'ALL' }],
});

/** One event's delivery to one subscription, with its attempt log; a subscription's deliveries share a partition. */
export const deliveryEntity = defineEntity({
  entity: 'delivery',
  tenantScoped: true,
  keys: {
    delivery: (tenantId: string, webhookId: string, eventId: string): Key => ({ pk: deliveriesPartition(tenantId, webhookId), sk: eventId }),
    deliveriesPartition,
  },
  primaryKey: 'delivery',
  indexes: [],
});

/** A large delivery body, stored once apart from its delivery's attempt log (webhook-repository.ts). */
export const deliveryBodyEntity = defineEntity({
  entity: 'delivery_body',
  tenantScoped: true,
  keys: {
    deliveryBody: (tenantId: string, webhookId: string, eventId: string): Key => ({ pk: `${webhookPartition(tenantId, webhookId)}#BODIES`, sk: eventId }),
  },
  primaryKey: 'deliveryBody',
  indexes: [],
});
