import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor, invalidCursorError } from '#shared/adapters/dynamodb/cursor';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { queryPage } from '#shared/adapters/dynamodb/paged-query';
import { keys } from '#shared/adapters/dynamodb/keys';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { transactWrite, type TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { roleOf, type ApiKeyRecord, type ApiKeySource } from '#shared/domain/api-key';
import type { Role } from '#shared/domain/roles';
import type { ServiceEvent } from '#shared/domain/event';
import { NotFoundError } from '#shared/domain/errors';

/** A change a key-binding job makes to one key it read, with its event. */
export type KeyBindingWrite = { record: ApiKeyRecord; event: ServiceEvent } & ({ action: 'cap'; role: Role } | { action: 'revoke'; reason: string; now: string });

/** DynamoDB's limit of items in one transaction; a key's change and its event are two. */
const MAX_TRANSACTION_ITEMS = 100;

/** The conditional update of one key's change: it applies only to the key as it was read. */
function bindingUpdate(write: KeyBindingWrite): TransactItem {
  const key = { TableName: tableName(), Key: keys.apiKey(write.record.key_hash) };
  if (write.action === 'revoke') {
    return {
      Update: {
        ...key,
        UpdateExpression: 'SET revoked_at = :now, revoked_reason = :reason',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
        ExpressionAttributeValues: { ':now': write.now, ':reason': write.reason },
      },
    };
  }
  const seen = write.record.role;
  return {
    Update: {
      ...key,
      UpdateExpression: 'SET #role = :role, granted_role = if_not_exists(granted_role, :granted)',
      // A key without a stored role is an admin (roleOf); either way the role must be the one read.
      ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(revoked_at) AND ${seen ? '#role = :seen' : 'attribute_not_exists(#role)'}`,
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':role': write.role, ':granted': roleOf(write.record), ...(seen ? { ':seen': seen } : {}) },
    },
  };
}

/** API keys, stored by the hash of the key; the key itself is never stored. */
export class DynamoApiKeyRepository {
  private get client() {
    return documentClient();
  }

  /** Stores a new key; with `event`, in one transaction with it (`api_key.created`). */
  async put(record: ApiKeyRecord, event?: ServiceEvent): Promise<void> {
    const put = {
      TableName: tableName(),
      Item: { ...keys.apiKey(record.key_hash), ...keys.apiKeyListing(record.tenant_id, record.key_id), entity: 'api_key', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    };
    if (!event) {
      await this.client.send(new PutCommand(put));
      return;
    }
    await this.client.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, await eventPut(event)] }));
  }

  /** One tenant's key by id (the listing index), or undefined. */
  async findById(tenantId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk AND #sk = :sk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey },
        ExpressionAttributeValues: { ':pk': 'APIKEYS', ':sk': `${tenantId}#${keyId}` },
      }),
    );
    const record = Items?.[0] ? stripKeys<ApiKeyRecord>(Items[0]) : undefined;
    return record?.tenant_id === tenantId ? record : undefined;
  }

  /**
   * One page of a tenant's keys, oldest first (key ids are time-ordered). The index's last key
   * holds the key's hash (the table key): the cursor carries the key id only, and the start key is
   * read back from it, so no cursor ever shows a key hash.
   */
  async listPage(tenantId: string, query: { limit: number; cursor?: string }): Promise<{ apiKeys: ApiKeyRecord[]; nextCursor: string | null }> {
    const scope = `api_keys|${tenantId}`;
    const position = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: 'tenant', partition: tenantId });
    const after = position ? await this.findById(tenantId, position.key_id ?? '') : undefined;
    if (position && !after) throw invalidCursorError();
    const { items, lastKey } = await queryPage<ApiKeyRecord>(
      {
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :tenant)',
        FilterExpression: 'tenant_id = :tenantId',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey },
        ExpressionAttributeValues: { ':pk': 'APIKEYS', ':tenant': `${tenantId}#`, ':tenantId': tenantId },
      },
      query.limit,
      after ? { ...keys.apiKey(after.key_hash), ...keys.apiKeyListing(tenantId, after.key_id) } : undefined,
    );
    const lastId = lastKey ? String(lastKey[GSI1.sortKey]).slice(tenantId.length + 1) : undefined;
    return { apiKeys: items, nextCursor: lastId ? await encodeCursor(tenantId, scope, { tenant: tenantId, key_id: lastId }) : null };
  }

  /**
   * Revokes a live key in one transaction with `event` (`api_key.revoked`). A key revoked
   * meanwhile is returned as it is, without a second event.
   */
  async revokeWithEvent(record: ApiKeyRecord, now: string, event: ServiceEvent): Promise<ApiKeyRecord> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.apiKey(record.key_hash),
                UpdateExpression: 'SET revoked_at = :now',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
                ExpressionAttributeValues: { ':now': now },
              },
            },
            await eventPut(event),
          ],
        }),
      );
      return { ...record, revoked_at: now };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const latest = await this.findByHash(record.key_hash);
      if (!latest) throw new NotFoundError('api_key', record.key_id);
      return latest;
    }
  }

  /**
   * Applies a key-binding job's changes, each with its event, in transactions of at most 100
   * items (a refused one for a concurrent write is sent again). Each change holds only for the
   * key as read: a key changed meanwhile fails its transaction with a condition failure, and the
   * caller reads again. Transactions committed before a failure stay: applying the job again skips
   * those keys, so no change and no event is ever written twice.
   */
  async applyBindingChanges(writes: KeyBindingWrite[]): Promise<void> {
    const items = await Promise.all(writes.map(async (write) => [bindingUpdate(write), await eventPut(write.event)]));
    const perTransaction = Math.floor(MAX_TRANSACTION_ITEMS / 2);
    for (let start = 0; start < items.length; start += perTransaction) {
      await transactWrite(items.slice(start, start + perTransaction).flat());
    }
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(keyHash) }));
    return Item ? stripKeys<ApiKeyRecord>(Item) : undefined;
  }

  /** All keys, or one tenant's keys, oldest first. */
  async list(tenantId?: string): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: GSI1.indexName,
          KeyConditionExpression: tenantId ? '#pk = :pk AND begins_with(#sk, :tenant)' : '#pk = :pk',
          ExpressionAttributeNames: { '#pk': GSI1.partitionKey, ...(tenantId ? { '#sk': GSI1.sortKey } : {}) },
          ExpressionAttributeValues: { ':pk': 'APIKEYS', ...(tenantId ? { ':tenant': `${tenantId}#` } : {}) },
          ExclusiveStartKey: startKey,
        }),
      );
      records.push(...(page.Items ?? []).map((item) => stripKeys<ApiKeyRecord>(item)));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records;
  }

  async revoke(keyId: string, now: string): Promise<ApiKeyRecord> {
    const record = (await this.list()).find((candidate) => candidate.key_id === keyId);
    if (!record) throw new NotFoundError('api_key', keyId);
    return this.revokeRecord(record, now);
  }

  /** Revokes a key already read (keeps the first revocation time if it was revoked meanwhile). */
  async revokeRecord(record: ApiKeyRecord, now: string): Promise<ApiKeyRecord> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.apiKey(record.key_hash),
          UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<ApiKeyRecord>(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('api_key', record.key_id);
      throw error;
    }
  }

  /** Hands a key to the local runtime's management (`source`), live: any revocation is lifted. */
  async manage(keyHash: string, source: ApiKeySource): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(keyHash),
        UpdateExpression: 'SET #source = :source REMOVE revoked_at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#source': 'source' },
        ExpressionAttributeValues: { ':source': source },
      }),
    );
  }

  /**
   * Records a use unless one at or after `notBefore` is recorded already (another instance won
   * the race), so a key's last-used time costs one write a minute, not one per request. Best
   * effort: a failed write of the last-used time must not fail the request.
   */
  async touch(keyHash: string, now: string, notBefore: string): Promise<void> {
    await this.client
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.apiKey(keyHash),
          UpdateExpression: 'SET last_used_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :notBefore)',
          ExpressionAttributeValues: { ':now': now, ':notBefore': notBefore },
        }),
      )
      .catch(() => undefined);
  }
}

export const apiKeyRepository = new DynamoApiKeyRepository();
