import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';

export interface HistoryEntry {
  scan_id: string;
  scanned_at: string;
  status: 'open' | 'fixed';
  count: number;
}

/** Rule history: per project and rule, one entry per completed scan, newest first. */
export const ruleHistoryRepository = {
  async putHistory(tenantId: string, projectId: string, ruleId: string, entry: HistoryEntry): Promise<void> {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...keys.ruleHistory(tenantId, projectId, ruleId, entry.scan_id), entity: 'rule_history', rule_id: ruleId, ...entry } }));
  },

  async history(tenantId: string, projectId: string, ruleId: string): Promise<HistoryEntry[]> {
    const { Items } = await documentClient().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.ruleHistoryPartition(tenantId, projectId, ruleId) }, ScanIndexForward: false, ConsistentRead: true }),
    );
    return (Items ?? []).map((item) => ({ scan_id: item.scan_id, scanned_at: item.scanned_at, status: item.status, count: item.count }));
  },
};
