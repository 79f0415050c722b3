import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { keys } from '#shared/adapters/dynamodb/keys';
import { queryAll, queryPage } from '#shared/adapters/dynamodb/paged-query';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import { transactWrite } from '#shared/adapters/dynamodb/transact-write';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { NotFoundError } from '#shared/domain/errors';
import type { ServiceEvent } from '#shared/domain/event';
import type { Integration, IntegrationKind } from '#shared/domain/integration';

function integrationItem(integration: Integration): Record<string, unknown> {
  return { ...keys.integration(integration.tenant_id, integration.integration_id), ...keys.integrationListing(integration.tenant_id, integration.integration_id), entity: 'integration', ...integration };
}

/** Integrations (entities/integration.ts): one item each, plus the owner pointer Slack's calls resolve. */
export class DynamoIntegrationRepository {
  private get client() {
    return documentClient();
  }

  /** Stores a new integration, counted against the tenant's cap in the same transaction (409 past it). */
  async create(integration: Integration): Promise<void> {
    await tenantCountRepository.create(integration.tenant_id, 'integrations', [
      { Put: { TableName: tableName(), Item: integrationItem(integration), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName(), Item: { ...keys.integrationOwner(integration.integration_id), entity: 'integration_owner', tenant_id: integration.tenant_id, integration_id: integration.integration_id }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ], this.counted(integration.tenant_id));
  }

  /** How many integrations the tenant has, for its counter's first value. */
  private counted(tenantId: string) {
    return async () => (await this.listAll(tenantId)).length;
  }

  async get(tenantId: string, integrationId: string): Promise<Integration | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.integration(tenantId, integrationId), ConsistentRead: true }));
    return Item ? stripKeys<Integration>(Item) : undefined;
  }

  /** The tenant of an integration id, for callers that arrive without a key (Slack). */
  async ownerOf(integrationId: string): Promise<string | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.integrationOwner(integrationId) }));
    return typeof Item?.tenant_id === 'string' ? Item.tenant_id : undefined;
  }

  /** Every integration of a tenant (at most GATEHOUSE_MAX_INTEGRATIONS_PER_TENANT), oldest first. */
  async listAll(tenantId: string): Promise<Integration[]> {
    return queryAll<Integration>({
      TableName: tableName(),
      IndexName: GSI1.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.integrationsPartition(tenantId) },
    });
  }

  /** Newest first, optionally of one kind. */
  async list(tenantId: string, query: { kind?: IntegrationKind; limit: number; cursor?: string }): Promise<{ integrations: Integration[]; nextCursor: string | null }> {
    const partition = keys.integrationsPartition(tenantId);
    const scope = `integrations|${partition}|${query.kind ?? ''}`;
    const startKey = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: GSI1.partitionKey, partition });
    const page = await queryPage<Integration>(
      {
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey, ...(query.kind ? { '#kind': 'kind' } : {}) },
        ExpressionAttributeValues: { ':pk': partition, ...(query.kind ? { ':kind': query.kind } : {}) },
        ...(query.kind ? { FilterExpression: '#kind = :kind' } : {}),
        ScanIndexForward: false,
      },
      query.limit,
      startKey,
    );
    return { integrations: page.items, nextCursor: await encodeCursor(tenantId, scope, page.lastKey) };
  }

  /** Sets fields of an existing integration; 404 when it is gone. */
  update(tenantId: string, integrationId: string, fields: Partial<Pick<Integration, 'name' | 'settings' | 'updated_at'>>): Promise<Integration> {
    return this.set(tenantId, integrationId, fields);
  }

  /** New checked credentials: the integration is active again, whatever it was. */
  replaceCredentials(tenantId: string, integrationId: string, fields: Pick<Integration, 'settings' | 'account' | 'credentials_ciphertext' | 'signing_secret_ciphertext' | 'updated_at'> & { name?: string }): Promise<Integration> {
    return this.set(tenantId, integrationId, { ...fields, status: 'active' }, ['revoked_at', 'revoked_reason']);
  }

  private async set(tenantId: string, integrationId: string, fields: Partial<Integration>, remove: (keyof Integration)[] = []): Promise<Integration> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.integration(tenantId, integrationId),
          UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<Integration>(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('integration', integrationId);
      throw error;
    }
  }

  /** Records a use; an older time never overwrites a newer one. Best effort: the caller ignores a lost race. */
  async markUsed(tenantId: string, integrationId: string, at: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.integration(tenantId, integrationId),
          UpdateExpression: 'SET last_used_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_type(last_used_at, :null) OR last_used_at < :at)',
          ExpressionAttributeValues: { ':at': at, ':null': 'NULL' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** Marks an active integration revoked with its event; false when it was already revoked or is gone. */
  async revoke(integration: Integration, reason: string, event: ServiceEvent): Promise<boolean> {
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.integration(integration.tenant_id, integration.integration_id),
            UpdateExpression: 'SET #status = :revoked, revoked_at = :at, revoked_reason = :reason, updated_at = :at',
            ConditionExpression: 'attribute_exists(pk) AND #status = :active',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':revoked': 'revoked', ':active': 'active', ':at': event.created_at, ':reason': reason },
          },
        },
        await eventPut(event),
      ]);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Deletes the integration with its encrypted credentials and its owner pointer; false when it was gone. */
  async delete(tenantId: string, integrationId: string): Promise<boolean> {
    return tenantCountRepository.remove(
      tenantId,
      'integrations',
      [
        { Delete: { TableName: tableName(), Key: keys.integration(tenantId, integrationId), ConditionExpression: 'attribute_exists(pk)' } },
        { Delete: { TableName: tableName(), Key: keys.integrationOwner(integrationId) } },
      ],
      this.counted(tenantId),
    );
  }
}

export const integrationRepository = new DynamoIntegrationRepository();
