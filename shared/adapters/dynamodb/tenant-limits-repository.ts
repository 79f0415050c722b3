import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { TenantLimitsRecord } from '#shared/domain/tenant-limits';

/** Per-tenant limit overrides: one small item in the tenant's partition. */
export class DynamoTenantLimitsRepository {
  private get client() {
    return documentClient();
  }

  async get(tenantId: string): Promise<TenantLimitsRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.tenantLimits(tenantId) }));
    return Item ? stripKeys<TenantLimitsRecord>(Item) : undefined;
  }

  async put(record: TenantLimitsRecord): Promise<void> {
    await this.client.send(new PutCommand({ TableName: tableName(), Item: { ...keys.tenantLimits(record.tenant_id), entity: 'tenant_limits', ...record } }));
  }

  async clear(tenantId: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: tableName(), Key: keys.tenantLimits(tenantId) }));
  }
}

export const tenantLimitsRepository = new DynamoTenantLimitsRepository();
