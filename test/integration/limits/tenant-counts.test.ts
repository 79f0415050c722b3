import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';
import { tenantCap } from '#shared/domain/tenant-caps';
import type { Webhook } from '#shared/domain/webhook';
import { provisionForTest, uniqueTenant } from '../../support/provisioned';

function webhook(tenantId: string, webhookId = newId('whk')): Webhook {
  const now = new Date().toISOString();
  return { webhook_id: webhookId, tenant_id: tenantId, url: 'https://hooks.example.com/in', events: ['task.complete'], status: 'enabled', secret_ciphertext: 'sealed', created_at: now, updated_at: now };
}

/** A subscription as stored before counters existed: the item alone, no counter raised. */
async function putLegacyWebhook(tenantId: string): Promise<void> {
  const legacy = webhook(tenantId);
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...keys.webhook(tenantId, legacy.webhook_id), ...keys.webhookListing(tenantId, legacy.webhook_id), entity: 'webhook', ...legacy } }));
}

describe('per-tenant count caps as conditional counters on DynamoDB Local', () => {
  beforeAll(async () => {
    // A small cap through its environment variable (read at first use): fewer writes, same races.
    process.env.GATEHOUSE_MAX_WEBHOOKS_PER_TENANT = '6';
    await provisionForTest('tenant-counts');
  });

  it('lets exactly the cap of 20 concurrent creates through and refuses the rest with the limit problem', async () => {
    const tenant = uniqueTenant();
    const cap = tenantCap('webhooks');
    expect(cap).toBe(6);

    const results = await Promise.allSettled(Array.from({ length: 20 }, () => webhookRepository.create(webhook(tenant))));

    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(cap);
    const refusals = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(refusals).toHaveLength(20 - cap);
    expect(refusals.every((reason) => reason instanceof ConflictError && reason.code === 'webhook_limit_reached')).toBe(true);
    expect(await tenantCountRepository.current(tenant, 'webhooks')).toBe(cap);
    expect(await webhookRepository.listAll(tenant)).toHaveLength(cap);
  });

  it('frees a slot when an item is deleted, and only once however often the delete is sent', async () => {
    const tenant = uniqueTenant();
    const cap = tenantCap('webhooks');
    const created = Array.from({ length: cap }, () => webhook(tenant));
    for (const item of created) await webhookRepository.create(item);
    await expect(webhookRepository.create(webhook(tenant))).rejects.toMatchObject({ code: 'webhook_limit_reached' });

    const deletes = await Promise.allSettled([0, 1, 2].map(() => webhookRepository.delete(tenant, created[0].webhook_id)));

    expect(deletes.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(deletes.filter((result) => result.status === 'rejected' && result.reason instanceof NotFoundError)).toHaveLength(2);
    expect(await tenantCountRepository.current(tenant, 'webhooks')).toBe(cap - 1);
    await webhookRepository.create(webhook(tenant));
    expect(await tenantCountRepository.current(tenant, 'webhooks')).toBe(cap);
    await expect(webhookRepository.create(webhook(tenant))).rejects.toMatchObject({ code: 'webhook_limit_reached' });
  });

  it('leaves the count unchanged when the create itself fails', async () => {
    const tenant = uniqueTenant();
    const first = webhook(tenant);
    await webhookRepository.create(first);

    // The same id again: the item's own condition fails, so the transaction (counter included) applies nothing.
    await expect(webhookRepository.create({ ...first, url: 'https://other.example.com/in' })).rejects.toMatchObject({ name: 'TransactionCanceledException' });

    expect(await tenantCountRepository.current(tenant, 'webhooks')).toBe(1);
    expect((await webhookRepository.get(tenant, first.webhook_id))?.url).toBe(first.url);
  });

  it('seeds a missing counter once from the items a tenant already had, then holds the cap from there', async () => {
    const tenant = uniqueTenant();
    const cap = tenantCap('webhooks');
    for (let index = 0; index < cap - 2; index++) await putLegacyWebhook(tenant);
    expect(await tenantCountRepository.current(tenant, 'webhooks')).toBeUndefined();

    const results = await Promise.allSettled(Array.from({ length: 6 }, () => webhookRepository.create(webhook(tenant))));

    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
    expect(await tenantCountRepository.current(tenant, 'webhooks')).toBe(cap);
    expect(await webhookRepository.listAll(tenant)).toHaveLength(cap);
  });

  it('seeds the counter before a delete of a tenant that has none, so the delete frees exactly one slot', async () => {
    const tenant = uniqueTenant();
    for (let index = 0; index < 3; index++) await putLegacyWebhook(tenant);
    const [legacy] = await webhookRepository.listAll(tenant);

    await webhookRepository.delete(tenant, legacy.webhook_id);

    expect(await tenantCountRepository.current(tenant, 'webhooks')).toBe(2);
    await expect(webhookRepository.delete(tenant, legacy.webhook_id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await tenantCountRepository.current(tenant, 'webhooks')).toBe(2);
  });

  it('refuses early with ensureRoom once the counter is at the cap, without writing', async () => {
    const tenant = uniqueTenant();
    await expect(tenantCountRepository.ensureRoom(tenant, 'webhooks')).resolves.toBeUndefined();
    for (let index = 0; index < tenantCap('webhooks'); index++) await webhookRepository.create(webhook(tenant));

    await expect(tenantCountRepository.ensureRoom(tenant, 'webhooks')).rejects.toMatchObject({ code: 'webhook_limit_reached', kind: 'conflict' });
  });
});
