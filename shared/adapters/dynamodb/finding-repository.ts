import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '#shared/adapters/dynamodb/batch';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { queryAll } from '#shared/adapters/dynamodb/paged-query';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { NotFoundError } from '#shared/domain/errors';
import type { Finding } from '#shared/scans/finding';

/** Findings: one item per problem of a project, the same across scans, with its lifecycle. */
export const findingRepository = {
  async getFinding(tenantId: string, findingId: string): Promise<Finding | undefined> {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.finding(tenantId, findingId), ConsistentRead: true }));
    return Item ? stripKeys<Finding>(Item) : undefined;
  },

  async getFindings(tenantId: string, findingIds: string[]): Promise<Map<string, Finding>> {
    const items = await batchGetAll(findingIds.map((id) => keys.finding(tenantId, id)), { consistentRead: true });
    return new Map(items.map((item) => stripKeys<Finding>(item)).map((finding) => [finding.finding_id, finding]));
  },

  async putFinding(finding: Finding): Promise<void> {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...keys.finding(finding.tenant_id, finding.finding_id), ...keys.findingListing(finding.tenant_id, finding.project_id, finding.finding_id), entity: 'finding', ...finding } }));
  },

  async projectFindings(tenantId: string, projectId: string): Promise<Finding[]> {
    return queryAll<Finding>({
      TableName: tableName(),
      IndexName: GSI1.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.projectFindingsPartition(tenantId, projectId) },
    });
  },

  async updateFinding(tenantId: string, findingId: string, fields: Partial<Finding>, remove: (keyof Finding)[] = []): Promise<Finding> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    const sets = entries.map(([name]) => `#${name} = :${name}`);
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.finding(tenantId, findingId),
          UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', remove.length ? `REMOVE ${remove.map((name) => `#${name}`).join(', ')}` : ''].join(' ').trim(),
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries([...entries.map(([name]) => [`#${name}`, name]), ...remove.map((name) => [`#${name}`, name])]),
          ...(entries.length ? { ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])) } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<Finding>(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('finding', findingId);
      throw error;
    }
  },
};
