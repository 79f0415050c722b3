import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { keys } from '#shared/adapters/dynamodb/keys';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
import type { TenantSettings } from '#shared/domain/retention';

/**
 * A tenant's settings: one item in the tenant's partition. Every change is a compare-and-set on
 * `version`, so two racing changes cannot both win and each version names exactly one setting.
 */
export class DynamoTenantSettingsRepository {
  private get client() {
    return documentClient();
  }

  async get(tenantId: string): Promise<TenantSettings | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.tenantSettings(tenantId), ConsistentRead: true }));
    return Item ? stripKeys<TenantSettings>(Item) : undefined;
  }

  /**
   * Stores `next` if the stored version is still `expectedVersion` (0: nothing stored yet), with
   * `event` in the same transaction when given. False when another change won.
   */
  async save(next: TenantSettings, expectedVersion: number, event?: ServiceEvent): Promise<boolean> {
    const put = {
      TableName: tableName(),
      Item: { ...keys.tenantSettings(next.tenant_id), entity: 'tenant_settings', ...next },
      ...(expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': expectedVersion } }),
    };
    try {
      if (event) await this.client.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, await eventPut(event)] }));
      else await this.client.send(new PutCommand(put));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Records that every artifact carries the stamp of `version`; a no-op once a newer change exists. */
  async markRestamped(tenantId: string, version: number): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.tenantSettings(tenantId),
          UpdateExpression: 'SET restamped_version = :version',
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': version },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

export const tenantSettingsRepository = new DynamoTenantSettingsRepository();
