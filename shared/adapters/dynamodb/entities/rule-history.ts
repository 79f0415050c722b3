import { defineEntity, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const ruleHistoryPartition = (tenantId: string, projectId: string, ruleId: string) => `${tenant(tenantId)}#PROJECT#${projectId}#RULE#${ruleId}#HISTORY`;

/** One rule's result in one completed scan of a project; a rule's history is one partition. */
export const ruleHistoryEntity = defineEntity({
  entity: 'rule_history',
  tenantScoped: true,
  keys: {
    ruleHistory: (tenantId: string, projectId: string, ruleId: string, scanId: string): Key => ({ pk: ruleHistoryPartition(tenantId, projectId, ruleId), sk: scanId }),
    ruleHistoryPartition,
  },
  primaryKey: 'ruleHistory',
  indexes: [],
});
