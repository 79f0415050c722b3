import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { batchWriteAll } from '#shared/adapters/dynamodb/batch';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { keys } from '#shared/adapters/dynamodb/keys';
import { queryAll, queryPage } from '#shared/adapters/dynamodb/paged-query';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import { transactWrite, type TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { Trigger, TriggerRun } from '#shared/domain/trigger';

type Item = Record<string, NativeAttributeValue>;

/** What a run changes on its trigger: the scheduled time it handled, the task it started. */
export interface TriggerAdvance {
  last_scheduled_for?: string;
  last_task_id?: string;
}

/** A run as stored, without its keys and the tenant the item carries for its partition. */
function storedRun(item: Record<string, unknown>): TriggerRun {
  const { tenant_id, ...run } = stripKeys<TriggerRun & { tenant_id: string }>(item);
  void tenant_id;
  return run;
}

function runItem(tenantId: string, run: TriggerRun): Item {
  return { ...keys.triggerRun(tenantId, run.trigger_id, run.run_id), entity: 'trigger_run', tenant_id: tenantId, ...run };
}

/**
 * The writes that record a run, for its own transaction (with the task it starts, if any): the
 * run, put only if no run of that id exists (the claim: one run per scheduled time or artifact),
 * and the trigger's advance, only while the trigger exists.
 */
export function runWrites(tenantId: string, run: TriggerRun, advance: TriggerAdvance = {}): TransactItem[] {
  const writes: TransactItem[] = [{ Put: { TableName: tableName(), Item: runItem(tenantId, run), ConditionExpression: 'attribute_not_exists(pk)' } }];
  const sets = Object.entries(advance).filter(([, value]) => value !== undefined);
  if (sets.length > 0) {
    writes.push({
      Update: {
        TableName: tableName(),
        Key: keys.trigger(tenantId, run.trigger_id),
        UpdateExpression: `SET ${sets.map(([field]) => `${field} = :${field}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: Object.fromEntries(sets.map(([field, value]) => [`:${field}`, value])),
      },
    });
  }
  return writes;
}

/** The local part of an inbound address (`t-abc@inbound.example` → `t-abc`). */
export function localPartOf(address: string): string {
  return address.slice(0, address.lastIndexOf('@')).toLowerCase();
}

function addressWrites(trigger: Trigger): TransactItem[] {
  if (trigger.source.type !== 'mail' || !trigger.source.address) return [];
  const item = { ...keys.inboundAddress(localPartOf(trigger.source.address)), entity: 'inbound_address', tenant_id: trigger.tenant_id, trigger_id: trigger.trigger_id };
  return [{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }];
}

/** The claim of a mail by a run, for the run's transaction: the first run of a Message-ID wins. */
export function mailMessageClaimWrite(tenantId: string, triggerId: string, messageDigest: string, runId: string): TransactItem {
  return { Put: { TableName: tableName(), Item: { ...keys.mailMessageClaim(tenantId, triggerId, messageDigest), entity: 'mail_message_claim', tenant_id: tenantId, run_id: runId }, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** Triggers and their runs in the single table (entities/trigger.ts). */
export class DynamoTriggerRepository {
  private get client() {
    return documentClient();
  }

  /**
   * Stores a new trigger, counted against the tenant's cap (409 past it); a mail trigger's address
   * is claimed in the same transaction.
   */
  async create(trigger: Trigger): Promise<void> {
    await tenantCountRepository.create(trigger.tenant_id, 'triggers', [
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.trigger(trigger.tenant_id, trigger.trigger_id), ...keys.triggerListing(trigger.tenant_id, trigger.trigger_id), entity: 'trigger', ...trigger },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...addressWrites(trigger),
    ], this.counted(trigger.tenant_id));
  }

  /** How many triggers the tenant has, for its counter's first value. */
  private counted(tenantId: string) {
    return async () => (await this.listAll(tenantId)).length;
  }

  /** The trigger an inbound address belongs to, by the address's local part. */
  async ownerOfAddress(localPart: string): Promise<{ tenant_id: string; trigger_id: string } | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.inboundAddress(localPart) }));
    return Item ? { tenant_id: String(Item.tenant_id), trigger_id: String(Item.trigger_id) } : undefined;
  }

  /** Claims a mail trigger's address (a trigger changed to mail); the address is random, a clash is a bug. */
  async claimAddress(trigger: Trigger): Promise<void> {
    await transactWrite(addressWrites(trigger));
  }

  /** The run that handled a mail (by its Message-ID's digest), if one did. */
  async mailMessageRun(tenantId: string, triggerId: string, messageDigest: string): Promise<string | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.mailMessageClaim(tenantId, triggerId, messageDigest), ConsistentRead: true }));
    return typeof Item?.run_id === 'string' ? Item.run_id : undefined;
  }

  /** Frees an address (its trigger was deleted or is no longer a mail trigger). */
  async releaseAddress(localPart: string): Promise<void> {
    await batchWriteAll([{ DeleteRequest: { Key: keys.inboundAddress(localPart) } }]);
  }

  async get(tenantId: string, triggerId: string): Promise<Trigger | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.trigger(tenantId, triggerId), ConsistentRead: true }));
    return Item ? stripKeys<Trigger>(Item) : undefined;
  }

  /** Every trigger of a tenant (at most GATEHOUSE_MAX_TRIGGERS_PER_TENANT), oldest first. */
  async listAll(tenantId: string): Promise<Trigger[]> {
    return queryAll<Trigger>({
      TableName: tableName(),
      IndexName: GSI1.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.triggersPartition(tenantId) },
    });
  }

  /** Newest first, filtered by source type. */
  async list(tenantId: string, query: { type?: string; limit: number; cursor?: string }): Promise<{ triggers: Trigger[]; nextCursor: string | null }> {
    const partition = keys.triggersPartition(tenantId);
    const scope = `triggers|${partition}|${query.type ?? ''}`;
    const startKey = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: GSI1.partitionKey, partition });
    const page = await queryPage<Trigger>(
      {
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey, ...(query.type ? { '#source': 'source', '#type': 'type' } : {}) },
        ExpressionAttributeValues: { ':pk': partition, ...(query.type ? { ':type': query.type } : {}) },
        ...(query.type ? { FilterExpression: '#source.#type = :type' } : {}),
        ScanIndexForward: false,
      },
      query.limit,
      startKey,
    );
    return { triggers: page.items, nextCursor: await encodeCursor(tenantId, scope, page.lastKey) };
  }

  /** Replaces the trigger's settings; false when it no longer exists. */
  async replace(trigger: Trigger): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.trigger(trigger.tenant_id, trigger.trigger_id), ...keys.triggerListing(trigger.tenant_id, trigger.trigger_id), entity: 'trigger', ...trigger },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Deletes the trigger, then its runs and task references (the tasks themselves stay). */
  async delete(tenantId: string, triggerId: string): Promise<void> {
    // The trigger first (freeing its place under the cap): a fire that races the delete then finds
    // no trigger and does nothing. Gone already (a concurrent delete): its runs are still swept.
    await tenantCountRepository.remove(tenantId, 'triggers', [{ Delete: { TableName: tableName(), Key: keys.trigger(tenantId, triggerId), ConditionExpression: 'attribute_exists(pk)' } }], this.counted(tenantId));
    let startKey: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.triggerPartition(tenantId, triggerId) }, ProjectionExpression: 'pk, sk', ExclusiveStartKey: startKey }),
      );
      await batchWriteAll((page.Items ?? []).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }

  /** A run's log entry and the trigger's advance, without a task; false when that run exists already. */
  async recordRun(tenantId: string, run: TriggerRun, advance: TriggerAdvance = {}): Promise<boolean> {
    try {
      await transactWrite(runWrites(tenantId, run, advance));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Runs that started nothing and need no claim (missed times): written, or written again, as they are. */
  async putRuns(tenantId: string, runs: readonly TriggerRun[]): Promise<void> {
    await batchWriteAll(runs.map((run) => ({ PutRequest: { Item: runItem(tenantId, run) } })));
  }

  async getRun(tenantId: string, triggerId: string, runId: string): Promise<TriggerRun | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.triggerRun(tenantId, triggerId, runId), ConsistentRead: true }));
    return Item ? storedRun(Item) : undefined;
  }

  /** The trigger's runs, newest first. */
  async listRuns(tenantId: string, triggerId: string, limit: number, cursor?: string): Promise<{ runs: TriggerRun[]; nextCursor: string | null }> {
    const partition = keys.triggerPartition(tenantId, triggerId);
    const scope = `runs|${partition}`;
    const startKey = await decodeCursor(tenantId, scope, cursor, { partitionAttribute: 'pk', partition });
    const page = await this.client.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :run)',
        ExpressionAttributeValues: { ':pk': partition, ':run': 'RUN#' },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    const runs = (page.Items ?? []).map(storedRun);
    return { runs, nextCursor: await encodeCursor(tenantId, scope, page.LastEvaluatedKey) };
  }
}

export const triggerRepository = new DynamoTriggerRepository();
