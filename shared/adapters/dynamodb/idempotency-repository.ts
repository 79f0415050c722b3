import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecord {
  fingerprint: string;
  state: 'in_progress' | 'done';
  locked_until: number;
  response?: StoredResponse;
}

/** Whose idempotency keys a record belongs to: one principal (API key or person) of one tenant. */
export interface IdempotencyScope {
  tenantId: string;
  principalId: string;
}

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
/** A claim whose owner died is taken over after this long. */
const LOCK_SECONDS = 60;

/** Idempotency keys: one item per tenant, principal and key, expired by DynamoDB TTL after 24 h. */
export class DynamoIdempotencyRepository {
  private get client() {
    return documentClient();
  }

  /** Claims the key for a first execution; returns the existing record when the key is taken. */
  async claim(scope: IdempotencyScope, key: string, fingerprint: string, nowSeconds: number): Promise<{ claimed: true } | { claimed: false; record: IdempotencyRecord }> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keys.idempotency(scope.tenantId, scope.principalId, key),
            entity: 'idempotency',
            fingerprint,
            state: 'in_progress',
            locked_until: nowSeconds + LOCK_SECONDS,
            [TTL_ATTRIBUTE]: nowSeconds + IDEMPOTENCY_WINDOW_SECONDS,
          },
          // Free, expired (TTL deletes lazily), or abandoned by a worker that died mid-request.
          ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now OR (#state = :inProgress AND locked_until < :now)',
          ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE, '#state': 'state' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':inProgress': 'in_progress' },
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.idempotency(scope.tenantId, scope.principalId, key), ConsistentRead: true }));
      if (!Item) return this.claim(scope, key, fingerprint, nowSeconds);
      return { claimed: false, record: Item as unknown as IdempotencyRecord };
    }
  }

  async complete(scope: IdempotencyScope, key: string, response: StoredResponse): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.idempotency(scope.tenantId, scope.principalId, key),
        UpdateExpression: 'SET #state = :done, #response = :response',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
        ExpressionAttributeValues: { ':done': 'done', ':response': response },
      }),
    );
  }

  /** Releases a claim whose request failed, so that a retry runs it again. */
  async release(scope: IdempotencyScope, key: string): Promise<void> {
    await this.client.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.idempotency(scope.tenantId, scope.principalId, key),
        ConditionExpression: '#state = :inProgress',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':inProgress': 'in_progress' },
      }),
    ).catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
  }
}

export const idempotencyRepository = new DynamoIdempotencyRepository();
