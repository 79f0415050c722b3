import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import type { ServiceEvent } from '#shared/domain/event';

/** Reads a task's events straight from the table, oldest first (GET /events comes later). */
export async function taskEvents(tenantId: string, taskId: string): Promise<ServiceEvent[]> {
  const { pk } = keys.event(tenantId, taskId, 'x');
  const { Items } = await documentClient().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }));
  return (Items ?? []) as ServiceEvent[];
}
