import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { BODY_APART_FROM_BYTES, webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { newId } from '#shared/domain/ids';
import type { Delivery } from '#shared/domain/webhook';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const rawItem = async (key: { pk: string; sk: string }) => (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

function delivery(tenantId: string, body: string): Delivery {
  return {
    tenant_id: tenantId,
    webhook_id: newId('whk'),
    event_id: newId('evt'),
    event_type: 'task.complete',
    body,
    status: 'pending',
    attempt_count: 0,
    attempts: [],
    created_at: new Date().toISOString(),
  };
}

const largeBody = JSON.stringify({ type: 'task.complete', data: { task: { input: { notes: 'x'.repeat(20_000) } } } });

describe('delivery bodies over 2 KB are stored once, apart from the attempt log', () => {
  beforeAll(async () => {
    await provisionForTest('delivery-body');
  });

  it('keeps a small body in the delivery', async () => {
    const small = delivery(uniqueTenant(), JSON.stringify({ type: 'task.complete', data: { task_id: 'tsk_1' } }));
    await webhookRepository.createDelivery(small);
    const stored = await webhookRepository.getDelivery(small.tenant_id, small.webhook_id, small.event_id);
    expect(stored?.body).toBe(small.body);
    expect(await rawItem(keys.deliveryBody(small.tenant_id, small.webhook_id, small.event_id))).toBeUndefined();
  });

  it('stores a large body apart, keeps the delivery item small through its attempts, and reads the same bytes back', async () => {
    expect(Buffer.byteLength(largeBody)).toBeGreaterThan(BODY_APART_FROM_BYTES);
    const large = delivery(uniqueTenant(), largeBody);
    await webhookRepository.createDelivery(large);
    const stored = (await webhookRepository.getDelivery(large.tenant_id, large.webhook_id, large.event_id))!;
    expect(stored.body).toBeUndefined();
    expect(await webhookRepository.bodyOf(stored)).toBe(largeBody);

    expect(await webhookRepository.recordAttempt(stored, { attempt: 1, at: new Date().toISOString(), ok: false, status_code: 500, latency_ms: 12 }, 'retrying', { next_attempt_at: new Date().toISOString() })).toBe(true);
    const item = await rawItem(keys.delivery(large.tenant_id, large.webhook_id, large.event_id));
    // What each attempt's write is billed by: under one write unit, not twenty.
    expect(Buffer.byteLength(JSON.stringify(item))).toBeLessThan(1024);
    expect(item?.body).toBeUndefined();
  });

  it('never changes a body once written: a fan-out run again with a newer body gets the stored delivery and the first bytes', async () => {
    const first = delivery(uniqueTenant(), largeBody);
    await webhookRepository.createDelivery(first);
    const again = await webhookRepository.createDelivery({ ...first, body: largeBody.replace('task.complete', 'task.complete ') });
    expect(again.status).toBe('pending');
    expect(await webhookRepository.bodyOf(again)).toBe(largeBody);
  });
});
