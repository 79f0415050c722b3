import { defineEntity, indexKey, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';
import { taskEntity } from '#shared/adapters/dynamodb/entities/task';

const integrationsPartition = (tenantId: string) => `${tenant(tenantId)}#INTEGRATIONS`;

/** A tenant's integration (credentials encrypted), listed per tenant on gsi1. */
export const integrationEntity = defineEntity({
  entity: 'integration',
  tenantScoped: true,
  keys: {
    integration: (tenantId: string, integrationId: string): Key => ({ pk: `${tenant(tenantId)}#INTEGRATION#${integrationId}`, sk: 'INTEGRATION' }),
    integrationListing: (tenantId: string, integrationId: string) => indexKey('gsi1', integrationsPartition(tenantId), integrationId),
    integrationsPartition,
  },
  primaryKey: 'integration',
  indexes: [{ index: 'gsi1', key: 'integrationListing', copies: 'ALL' }],
});

/**
 * Which tenant an integration belongs to, by its id alone: Slack calls
 * `/integrations/{id}/slack/...` without an API key. Written and deleted with the integration.
 */
export const integrationOwnerEntity = defineEntity({
  entity: 'integration_owner',
  tenantScoped: false,
  keys: {
    integrationOwner: (integrationId: string): Key => ({ pk: `INTEGRATION#${integrationId}`, sk: 'OWNER' }),
  },
  primaryKey: 'integrationOwner',
  indexes: [],
});

/** One tool call of a task, by the agent-context step that made it: its result is what a replay returns. */
export const toolCallEntity = defineEntity({
  entity: 'tool_call',
  tenantScoped: true,
  keys: {
    toolCall: (tenantId: string, taskId: string, step: number): Key => ({ pk: taskEntity.keys.task(tenantId, taskId).pk, sk: `TOOLCALL#${String(step).padStart(6, '0')}` }),
  },
  primaryKey: 'toolCall',
  indexes: [],
});
