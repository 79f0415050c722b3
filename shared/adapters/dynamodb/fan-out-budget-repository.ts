import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import type { TransactItem } from '#shared/adapters/dynamodb/transact-write';

/** How long a root's budget item is kept after its last spend: far longer than any chain runs. */
const KEPT_SECONDS = 30 * 24 * 3600;

/**
 * The fan-out budget of event-trigger chains (entities/counter.ts): one counter per originating
 * task, spent by each task an event trigger starts anywhere down its chain.
 */
export class DynamoFanOutBudgetRepository {
  /**
   * The write that spends one task of the root's budget, for the transaction that creates the
   * task: it fails (and with it the creation) once `budget` tasks were started from the root.
   */
  spendWrite(tenantId: string, rootTaskId: string, budget: number, now: Date): TransactItem {
    return {
      Update: {
        TableName: tableName(),
        Key: keys.fanOutBudget(tenantId, rootTaskId),
        UpdateExpression: 'SET #entity = :entity, #expires = :expires ADD #spent :one',
        ConditionExpression: 'attribute_not_exists(#spent) OR #spent < :budget',
        ExpressionAttributeNames: { '#entity': 'entity', '#expires': TTL_ATTRIBUTE, '#spent': 'spent' },
        ExpressionAttributeValues: { ':entity': 'fan_out_budget', ':expires': Math.floor(now.getTime() / 1000) + KEPT_SECONDS, ':one': 1, ':budget': budget },
      },
    };
  }

  /** How many tasks event triggers started from the root so far. */
  async spent(tenantId: string, rootTaskId: string): Promise<number> {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.fanOutBudget(tenantId, rootTaskId), ConsistentRead: true }));
    return typeof Item?.spent === 'number' ? Item.spent : 0;
  }
}

export const fanOutBudgetRepository = new DynamoFanOutBudgetRepository();
