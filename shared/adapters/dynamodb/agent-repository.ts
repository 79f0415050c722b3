import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '#shared/adapters/dynamodb/paged-query';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { AgentConfig, AgentDeployment } from '#shared/domain/agent-deployment';
import { ConflictError, NotFoundError } from '#shared/domain/errors';

/**
 * Deployed agents live in the tenant's own partition, one item per slug, so a tenant deploys each
 * agent at most once and listing them is a strongly consistent query of a small partition (custom
 * agents' manifests make items up to 64 KB: at most GATEHOUSE_MAX_CUSTOM_AGENTS_PER_TENANT of them).
 */
export class DynamoAgentRepository {
  private get client() {
    return documentClient();
  }

  /** Deploys the agent; a custom one (with a manifest) is counted against the tenant's cap in the same transaction (409 past it). */
  async deploy(agent: AgentDeployment): Promise<void> {
    const put = { TableName: tableName(), Item: { ...keys.agent(agent.tenant_id, agent.agent_slug), entity: 'agent', ...agent }, ConditionExpression: 'attribute_not_exists(pk)' };
    try {
      if (agent.manifest) await tenantCountRepository.create(agent.tenant_id, 'custom_agents', [{ Put: put }], () => this.customCount(agent.tenant_id));
      else await this.client.send(new PutCommand(put));
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const existing = await this.findBySlug(agent.tenant_id, agent.agent_slug);
      throw new ConflictError('agent_already_deployed', `Agent '${agent.agent_slug}' is already deployed as ${existing?.agent_id ?? 'another agent'}.`);
    }
  }

  async list(tenantId: string): Promise<AgentDeployment[]> {
    const items = await queryAll<AgentDeployment>({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.tenantPartition(tenantId), ':prefix': keys.agentPrefix },
      ConsistentRead: true,
    });
    return items.sort((a, b) => a.agent_id.localeCompare(b.agent_id));
  }

  async findBySlug(tenantId: string, slug: string): Promise<AgentDeployment | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.agent(tenantId, slug), ConsistentRead: true }));
    return Item ? stripKeys<AgentDeployment>(Item) : undefined;
  }

  /** By id: the partition's ids and slugs only (not the manifests), then the one item. */
  async findById(tenantId: string, agentId: string): Promise<AgentDeployment | undefined> {
    const ids = await queryAll<Pick<AgentDeployment, 'agent_id' | 'agent_slug'>>({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.tenantPartition(tenantId), ':prefix': keys.agentPrefix },
      ProjectionExpression: 'agent_id, agent_slug',
      ConsistentRead: true,
    });
    const slug = ids.find((agent) => agent.agent_id === agentId)?.agent_slug;
    return slug ? this.findBySlug(tenantId, slug) : undefined;
  }

  /** How many custom agents the tenant deployed (their items carry a manifest). */
  async customCount(tenantId: string): Promise<number> {
    const items = await queryAll<{ agent_slug: string }>({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'attribute_exists(manifest)',
      ExpressionAttributeValues: { ':pk': keys.tenantPartition(tenantId), ':prefix': keys.agentPrefix },
      ProjectionExpression: 'agent_slug',
      ConsistentRead: true,
    });
    return items.length;
  }

  async updateConfig(tenantId: string, slug: string, config: Partial<AgentConfig>, now: string): Promise<AgentDeployment> {
    const entries = Object.entries(config).filter(([, value]) => value !== undefined);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.agent(tenantId, slug),
          UpdateExpression: `SET updated_at = :now${entries.map(([name]) => `, config.#${name} = :${name}`).join('')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: entries.length ? Object.fromEntries(entries.map(([name]) => [`#${name}`, name])) : undefined,
          ExpressionAttributeValues: { ':now': now, ...Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<AgentDeployment>(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('agent', slug);
      throw error;
    }
  }
}

export const agentRepository = new DynamoAgentRepository();
