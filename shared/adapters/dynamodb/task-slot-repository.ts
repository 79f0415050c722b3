import { ConditionalCheckFailedException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import { expiredLeases } from '#shared/domain/task-fairness';

/** Races lost before a worker treats the tenant as at its cap (and defers; nothing is lost). */
const MAX_ROUNDS = 4;
/** The slots item outlives its last lease by a day; TTL removes tenants that stopped running tasks. */
const ITEM_TTL_SECONDS = 24 * 60 * 60;

interface SlotsItem {
  leases?: Record<string, number>;
}

/**
 * A tenant's running tasks: one item with a map of task id → lease end (epoch ms), small enough
 * that a tenant's leases stay within a few write units (the cap is at most 100). A task takes a
 * slot with one conditional write, "add my lease if size(leases) < cap"; the cap holds across any
 * number of workers because DynamoDB evaluates the condition and the write atomically. A failed
 * condition returns the item, from which the worker sees whether the task holds a lease already
 * (a redelivery: renew it) or whether leases of dead workers can be taken back.
 */
export class DynamoTaskSlotRepository {
  private get client() {
    return documentClient();
  }

  /** Takes a slot for the task, or answers false when the tenant has `cap` live leases. */
  async acquire(tenantId: string, taskId: string, cap: number, nowMs: number, leaseMs: number): Promise<boolean> {
    const until = nowMs + leaseMs;
    const expires = Math.ceil(nowMs / 1000) + ITEM_TTL_SECONDS;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let current: SlotsItem | undefined;
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.taskSlots(tenantId),
            UpdateExpression: 'SET leases.#task = :until, #ttl = :expires',
            ConditionExpression: 'size(leases) < :cap AND attribute_not_exists(leases.#task)',
            ExpressionAttributeNames: { '#task': taskId, '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':until': until, ':expires': expires, ':cap': cap },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        current = oldItem(error);
      }
      if (!current?.leases) {
        if (await this.create(tenantId, taskId, until, expires)) return true;
        continue;
      }
      if (current.leases[taskId] !== undefined) {
        if (await this.renew(tenantId, taskId, until)) return true;
        continue;
      }
      if (Object.keys(current.leases).length < cap) continue; // a lease ended meanwhile: try again
      const expired = expiredLeases(current.leases, nowMs);
      if (expired.length === 0) return false;
      // A bounded expression; more ended leases are reclaimed on the next round.
      await this.reclaim(tenantId, expired.slice(0, 20), current.leases);
    }
    return false;
  }

  /** Ends the task's lease. A lease already reclaimed (the run outlived it) is left alone. */
  async release(tenantId: string, taskId: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.taskSlots(tenantId),
          UpdateExpression: 'REMOVE leases.#task',
          ConditionExpression: 'attribute_exists(leases.#task)',
          ExpressionAttributeNames: { '#task': taskId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** The tenant's live leases (tests and operators). */
  async leases(tenantId: string): Promise<Record<string, number>> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.taskSlots(tenantId), ConsistentRead: true }));
    return (Item?.leases as Record<string, number> | undefined) ?? {};
  }

  private async create(tenantId: string, taskId: string, until: number, expires: number): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.taskSlots(tenantId), entity: 'task_slots', leases: { [taskId]: until }, [TTL_ATTRIBUTE]: expires },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return false;
    }
  }

  private async renew(tenantId: string, taskId: string, until: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.taskSlots(tenantId),
          UpdateExpression: 'SET leases.#task = :until',
          ConditionExpression: 'attribute_exists(leases.#task)',
          ExpressionAttributeNames: { '#task': taskId },
          ExpressionAttributeValues: { ':until': until },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return false;
    }
  }

  /** Removes ended leases, each only if unchanged since it was read (not renewed meanwhile). */
  private async reclaim(tenantId: string, taskIds: string[], leases: Record<string, number>): Promise<void> {
    const names = Object.fromEntries(taskIds.map((taskId, index) => [`#t${index}`, taskId]));
    const values = Object.fromEntries(taskIds.map((taskId, index) => [`:u${index}`, leases[taskId]]));
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.taskSlots(tenantId),
          UpdateExpression: `REMOVE ${taskIds.map((_, index) => `leases.#t${index}`).join(', ')}`,
          ConditionExpression: taskIds.map((_, index) => `leases.#t${index} = :u${index}`).join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

function oldItem(error: unknown): SlotsItem | undefined {
  const item = (error as ConditionalCheckFailedException).Item as Record<string, AttributeValue> | undefined;
  return item ? (unmarshall(item) as SlotsItem) : undefined;
}

export const taskSlotRepository = new DynamoTaskSlotRepository();
