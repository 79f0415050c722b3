import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { keys } from '#shared/adapters/dynamodb/keys';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { NotFoundError } from '#shared/domain/errors';
import { withCrawlDefaults, type Project } from '#shared/scans/scan';

/** A stored project as the domain sees it: crawl settings added since it was written get their defaults. */
function projectOf(item: Record<string, unknown>): Project {
  const project = stripKeys<Project>(item);
  return { ...project, crawl: withCrawlDefaults(project.crawl) };
}

/** Projects: the sites a tenant scans, one item each, listed newest first. */
export const projectRepository = {
  async createProject(project: Project): Promise<void> {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...keys.project(project.tenant_id, project.project_id), ...keys.projectListing(project.tenant_id, project.project_id), entity: 'project', ...project }, ConditionExpression: 'attribute_not_exists(pk)' }));
  },

  async getProject(tenantId: string, projectId: string): Promise<Project | undefined> {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.project(tenantId, projectId), ConsistentRead: true }));
    return Item ? projectOf(Item) : undefined;
  },

  async updateProject(tenantId: string, projectId: string, fields: Partial<Project>): Promise<Project> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.project(tenantId, projectId),
          UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return projectOf(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('project', projectId);
      throw error;
    }
  },

  async listProjects(tenantId: string, limit: number, cursor?: string): Promise<{ projects: Project[]; nextCursor: string | null }> {
    const partition = keys.projectsPartition(tenantId);
    const scope = `projects|${partition}`;
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: await decodeCursor(tenantId, scope, cursor, { partitionAttribute: GSI1.partitionKey, partition }),
      }),
    );
    return { projects: (page.Items ?? []).map(projectOf), nextCursor: await encodeCursor(tenantId, scope, page.LastEvaluatedKey) };
  },
};
