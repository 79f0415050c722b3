import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { newId } from '#shared/domain/ids';
import { ATTEMPT_DETAILS_KEPT, type Delivery, type DeliveryAttempt } from '#shared/domain/webhook';
import { MAX_DELIVERY_ATTEMPTS } from '#shared/domain/webhook-retry';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const rawItem = async (delivery: Delivery) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.delivery(delivery.tenant_id, delivery.webhook_id, delivery.event_id), ConsistentRead: true }))).Item;

function delivery(): Delivery {
  return {
    tenant_id: uniqueTenant(),
    webhook_id: newId('whk'),
    event_id: newId('evt'),
    event_type: 'task.complete',
    body: '{"type":"task.complete"}',
    status: 'pending',
    attempt_count: 0,
    attempts: [],
    created_at: new Date().toISOString(),
  };
}

/** An attempt as large as one can be: the longest URL, every header, a full excerpt. */
function attempt(number: number): DeliveryAttempt {
  return {
    attempt: number,
    at: new Date().toISOString(),
    ok: false,
    status_code: 500,
    latency_ms: 12,
    error: 'HTTP 500',
    request: { url: `https://hooks.example.com/${'p'.repeat(2000)}`, headers: { 'X-Service-Signature': `sha256=${'a'.repeat(64)}`, 'webhook-signature': `v1,${'b'.repeat(44)} v1,${'c'.repeat(44)}`, 'X-Service-Timestamp': '1767225600' } },
    response: { status_code: 500, content_type: 'text/plain', body: 'e'.repeat(1024), truncated: true },
  };
}

describe('delivery attempts keep their request and response', () => {
  beforeAll(async () => {
    await provisionForTest('attempt-details');
  });

  it('stores an attempt with its request and response and reads them back', async () => {
    const created = await webhookRepository.createDelivery(delivery());

    expect(await webhookRepository.recordAttempt(created, attempt(1), 'retrying', { next_attempt_at: new Date().toISOString() })).toBe(true);

    const stored = await webhookRepository.getDelivery(created.tenant_id, created.webhook_id, created.event_id);
    expect(stored?.attempts).toEqual([attempt(1)].map((expected) => ({ ...expected, at: stored!.attempts[0].at })));
  });

  it('keeps them for the latest attempts only, so the item stays small past a whole round of retries and a resend', async () => {
    const created = await webhookRepository.createDelivery(delivery());
    const total = MAX_DELIVERY_ATTEMPTS + 5;

    for (let number = 1; number <= total; number++) expect(await webhookRepository.recordAttempt(created, attempt(number), 'retrying', { next_attempt_at: new Date().toISOString() })).toBe(true);

    const stored = (await webhookRepository.getDelivery(created.tenant_id, created.webhook_id, created.event_id))!;
    expect(stored.attempts.map((kept) => kept.attempt)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
    const detailed = stored.attempts.filter((kept) => kept.request !== undefined || kept.response !== undefined).map((kept) => kept.attempt);
    expect(detailed).toEqual(Array.from({ length: ATTEMPT_DETAILS_KEPT }, (_, index) => total - ATTEMPT_DETAILS_KEPT + 1 + index));
    expect(stored.attempts[0]).toMatchObject({ attempt: 1, status_code: 500, error: 'HTTP 500' });
    // Well under DynamoDB's 400 KB item limit (every excerpt kept would be over it).
    expect(Buffer.byteLength(JSON.stringify(await rawItem(created)))).toBeLessThan(64 * 1024);
  }, 120_000);
});
