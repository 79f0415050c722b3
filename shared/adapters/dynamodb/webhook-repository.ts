import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { batchGetAll } from '#shared/adapters/dynamodb/batch';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { queryAll } from '#shared/adapters/dynamodb/paged-query';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { eventDay } from '#shared/adapters/dynamodb/event-item';
import { lastIdAt } from '#shared/adapters/dynamodb/event-repository';
import { EVENT_SHARDS, keys, shardOf } from '#shared/adapters/dynamodb/keys';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import { transactWrite } from '#shared/adapters/dynamodb/transact-write';
import { usageUpdate } from '#shared/adapters/dynamodb/usage-repository';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
import { NotFoundError } from '#shared/domain/errors';
import { ATTEMPT_DETAILS_KEPT, type Delivery, type DeliveryAttempt, type DeliveryStatus, type Webhook } from '#shared/domain/webhook';

type Item = Record<string, NativeAttributeValue>;

/**
 * Bodies larger than this are stored apart from their delivery. Apart, a body costs one more item
 * written once and one strongly consistent read per attempt (a fifth of a write's price per 4 KB);
 * inline, every attempt's write is billed by the body's size again. Over 2 KB apart is cheaper from
 * the first attempt on, and each retry saves as much again.
 */
export const BODY_APART_FROM_BYTES = 2048;

/** Webhook subscriptions (listed per tenant on gsi1) and their deliveries (one partition per subscription). */
export class DynamoWebhookRepository {
  private get client() {
    return documentClient();
  }

  /** Stores a new subscription, counted against the tenant's cap in the same transaction (409 past it). */
  async create(webhook: Webhook): Promise<void> {
    const item = { ...keys.webhook(webhook.tenant_id, webhook.webhook_id), ...keys.webhookListing(webhook.tenant_id, webhook.webhook_id), entity: 'webhook', ...webhook };
    await tenantCountRepository.create(webhook.tenant_id, 'webhooks', [{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }], this.counted(webhook.tenant_id));
  }

  /** How many subscriptions the tenant has, for its counter's first value. */
  private counted(tenantId: string) {
    return async () => (await this.listAll(tenantId)).length;
  }

  async get(tenantId: string, webhookId: string): Promise<Webhook | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.webhook(tenantId, webhookId), ConsistentRead: true }));
    return Item ? stripKeys<Webhook>(Item) : undefined;
  }

  /** A tenant's subscriptions, oldest first (a tenant has few; no paging needed internally). */
  async listAll(tenantId: string): Promise<Webhook[]> {
    return queryAll<Webhook>({
      TableName: tableName(),
      IndexName: GSI1.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.webhooksPartition(tenantId) },
    });
  }

  /** Sets fields of an existing subscription; 404 when it does not exist. */
  async update(tenantId: string, webhookId: string, fields: Partial<Webhook>, remove: (keyof Webhook)[] = []): Promise<Webhook> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    const names: Record<string, string> = Object.fromEntries([...entries.map(([name]) => [`#${name}`, name]), ...remove.map((name) => [`#${name}`, name])]);
    const sets = entries.map(([name]) => `#${name} = :${name}`);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.webhook(tenantId, webhookId),
          UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', remove.length ? `REMOVE ${remove.map((name) => `#${name}`).join(', ')}` : ''].join(' ').trim(),
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: entries.length ? Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])) : undefined,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<Webhook>(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('webhook', webhookId);
      throw error;
    }
  }

  /** Deletes the subscription and frees its place under the tenant's cap, in one transaction. */
  async delete(tenantId: string, webhookId: string): Promise<void> {
    const deletion = { Delete: { TableName: tableName(), Key: keys.webhook(tenantId, webhookId), ConditionExpression: 'attribute_exists(pk)' } };
    if (!(await tenantCountRepository.remove(tenantId, 'webhooks', [deletion], this.counted(tenantId)))) throw new NotFoundError('webhook', webhookId);
  }

  /** The stored event a delivery is about. */
  async event(tenantId: string, eventId: string): Promise<ServiceEvent | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: tableName(), Key: keys.event(tenantId, eventDay(eventId), shardOf(eventId, EVENT_SHARDS), eventId), ConsistentRead: true }),
    );
    return Item ? stripKeys<ServiceEvent>(Item) : undefined;
  }

  /**
   * Creates the delivery unless it exists; returns the stored one either way. A body over
   * BODY_APART_FROM_BYTES is written first, once, in an item of its own: every attempt rewrites the
   * delivery (its status and attempt log), and DynamoDB bills each rewrite by the whole item.
   */
  async createDelivery(delivery: Delivery): Promise<Delivery> {
    const apart = delivery.body !== undefined && Buffer.byteLength(delivery.body, 'utf8') > BODY_APART_FROM_BYTES;
    if (apart) await this.putBodyOnce(delivery);
    const { body: _body, ...withoutBody } = delivery;
    try {
      await this.client.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.delivery(delivery.tenant_id, delivery.webhook_id, delivery.event_id), entity: 'delivery', ...(apart ? { ...withoutBody, body_apart: true } : delivery) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return delivery;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.getDelivery(delivery.tenant_id, delivery.webhook_id, delivery.event_id))!;
    }
  }

  /**
   * The first body written for a delivery stays its body: a fan-out run again later (the task has
   * moved on since) must not change the bytes an earlier attempt sent and signed.
   */
  private async putBodyOnce(delivery: Delivery): Promise<void> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.deliveryBody(delivery.tenant_id, delivery.webhook_id, delivery.event_id), entity: 'delivery_body', body: delivery.body },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** The exact body of a delivery, from its own item when stored apart (strongly consistent). */
  async bodyOf(delivery: Delivery): Promise<string> {
    if (delivery.body !== undefined) return delivery.body;
    const { Item } = await this.client.send(
      new GetCommand({ TableName: tableName(), Key: keys.deliveryBody(delivery.tenant_id, delivery.webhook_id, delivery.event_id), ConsistentRead: true }),
    );
    // Written before the delivery, never deleted without it: its absence is a fault, not an input.
    if (typeof Item?.body !== 'string') throw new Error(`The body of delivery ${delivery.event_id} of webhook ${delivery.webhook_id} is missing.`);
    return Item.body;
  }

  async getDelivery(tenantId: string, webhookId: string, eventId: string): Promise<Delivery | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.delivery(tenantId, webhookId, eventId), ConsistentRead: true }));
    return Item ? stripKeys<Delivery>(Item) : undefined;
  }

  /** Several deliveries of one subscription by event id, strongly consistent; missing ones are left out. */
  async getDeliveries(tenantId: string, webhookId: string, eventIds: readonly string[]): Promise<Delivery[]> {
    const items = await batchGetAll(eventIds.map((eventId) => keys.delivery(tenantId, webhookId, eventId)), { consistentRead: true });
    return items.map((item) => stripKeys<Delivery>(item));
  }

  /**
   * Appends attempt number `attempt.attempt` and the delivery's new status, once: the write
   * holds only if exactly the attempts before it were recorded. The attempt is counted in the
   * tenant's usage in the same transaction, so exactly once. The attempt that falls out of the
   * latest ATTEMPT_DETAILS_KEPT loses its request and response in the same write, which keeps the
   * item's size bounded however many attempts it records.
   */
  async recordAttempt(delivery: Delivery, attempt: DeliveryAttempt, status: DeliveryStatus, extra: { next_attempt_at?: string; failure_reason?: Delivery['failure_reason'] } = {}): Promise<boolean> {
    // The condition makes the list exactly `attempt - 1` long, so attempt n is set (appended) at
    // index n - 1; list_append would overlap the removal's path.
    const aged = attempt.attempt - 1 - ATTEMPT_DETAILS_KEPT;
    const removals = [...(extra.next_attempt_at ? [] : ['next_attempt_at']), ...(aged >= 0 ? [`attempts[${aged}].#request`, `attempts[${aged}].#response`] : [])];
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.delivery(delivery.tenant_id, delivery.webhook_id, delivery.event_id),
            UpdateExpression: `SET attempts[${attempt.attempt - 1}] = :attempt, attempt_count = :count, #status = :status${extra.next_attempt_at ? ', next_attempt_at = :next' : ''}${extra.failure_reason ? ', failure_reason = :reason' : ''}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
            ConditionExpression: 'attempt_count = :previous',
            ExpressionAttributeNames: { '#status': 'status', ...(aged >= 0 ? { '#request': 'request', '#response': 'response' } : {}) },
            ExpressionAttributeValues: {
              ':attempt': attempt,
              ':count': attempt.attempt,
              ':previous': attempt.attempt - 1,
              ':status': status,
              ...(extra.next_attempt_at ? { ':next': extra.next_attempt_at } : {}),
              ...(extra.failure_reason ? { ':reason': extra.failure_reason } : {}),
            },
          },
        },
        usageUpdate({ tenantId: delivery.tenant_id, at: attempt.at, shardBy: `${delivery.webhook_id}#${delivery.event_id}`, counts: { webhook_deliveries: 1 } }),
      ]);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Marks a delivery that ended without an attempt (subscription disabled or deleted). */
  async finishWithoutAttempt(delivery: Delivery, status: DeliveryStatus, reason: Delivery['failure_reason']): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.delivery(delivery.tenant_id, delivery.webhook_id, delivery.event_id),
        UpdateExpression: 'SET #status = :status, failure_reason = :reason REMOVE next_attempt_at',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':reason': reason },
      }),
    );
  }

  /** Re-opens an ended delivery for another round of attempts (resend, recover). */
  async reopen(delivery: Delivery, now: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.delivery(delivery.tenant_id, delivery.webhook_id, delivery.event_id),
        UpdateExpression: 'SET #status = :retrying, next_attempt_at = :now REMOVE failure_reason',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':retrying': 'retrying', ':now': now },
      }),
    );
  }

  /** Deliveries of a subscription, newest first, optionally only those since an instant or of a status. */
  async listDeliveries(tenantId: string, webhookId: string, query: { limit: number; cursor?: string; status?: DeliveryStatus; since?: string }): Promise<{ deliveries: Delivery[]; nextCursor: string | null }> {
    const partition = keys.deliveriesPartition(tenantId, webhookId);
    const scope = `deliveries|${partition}|${query.status ?? ''}|${query.since ?? ''}`;
    let startKey: Item | undefined = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: 'pk', partition });
    const deliveries: Delivery[] = [];
    for (let round = 0; round < 25 && deliveries.length < query.limit; round++) {
      const page = await this.client.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: query.since ? 'pk = :pk AND sk > :since' : 'pk = :pk',
          ...(query.status ? { FilterExpression: '#status = :status' } : {}),
          ...(query.status ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
          ExpressionAttributeValues: { ':pk': partition, ...(query.since ? { ':since': lastIdAt(Date.parse(query.since) - 1) } : {}), ...(query.status ? { ':status': query.status } : {}) },
          ScanIndexForward: false,
          Limit: query.limit - deliveries.length,
          ExclusiveStartKey: startKey,
          ConsistentRead: true,
        }),
      );
      deliveries.push(...(page.Items ?? []).map((item) => stripKeys<Delivery>(item)));
      startKey = page.LastEvaluatedKey;
      if (!startKey) break;
    }
    return { deliveries, nextCursor: await encodeCursor(tenantId, scope, startKey) };
  }
}

export const webhookRepository = new DynamoWebhookRepository();
