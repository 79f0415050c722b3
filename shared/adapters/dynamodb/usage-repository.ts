import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys, shardOf, USAGE_SHARDS } from '#shared/adapters/dynamodb/keys';
import { queryAll } from '#shared/adapters/dynamodb/paged-query';
import type { TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { AGENT_USAGE_COUNTERS, monthOf, roundSeconds, USAGE_COUNTERS, type AgentUsageCounter, type UsageCounter, type UsageCounts } from '#shared/domain/usage';

/** What one counted change adds to its tenant's usage in the month of `at`. */
export interface UsageIncrement {
  tenantId: string;
  /** The counted change's time; its UTC month is the month counted. */
  at: string;
  /** The id of the counted record: it picks the counter shard, so concurrent work spreads over them. */
  shardBy: string;
  counts: Partial<Record<UsageCounter, number>>;
  /** The same change by agent and task type. */
  byTaskType?: { agent: string; task_type: string; counts: Partial<Record<AgentUsageCounter, number>> };
}

// By-agent counters are flat attributes `by|<agent>|<task_type>|<counter>`: ADD cannot create a
// nested map's missing parents, and a task type may contain any character but `|` never starts or ends one.
const BY = 'by';
const byAttribute = (agent: string, taskType: string, counter: AgentUsageCounter) => [BY, agent, taskType, counter].join('|');

/** The counter item's update: an `ADD` of every count, for a transaction or on its own. */
export function usageUpdate(increment: UsageIncrement): TransactItem {
  const names: Record<string, string> = { '#entity': 'entity', '#tenant': 'tenant_id', '#month': 'month' };
  const month = monthOf(increment.at);
  const values: Record<string, unknown> = { ':entity': 'usage', ':tenant': increment.tenantId, ':month': month };
  const adds: string[] = [];
  const add = (attribute: string, amount: number | undefined) => {
    if (!amount) return;
    const index = adds.length;
    names[`#c${index}`] = attribute;
    values[`:c${index}`] = amount;
    adds.push(`#c${index} :c${index}`);
  };
  for (const counter of USAGE_COUNTERS) add(counter, increment.counts[counter]);
  const by = increment.byTaskType;
  if (by) for (const counter of AGENT_USAGE_COUNTERS) add(byAttribute(by.agent, by.task_type, counter), by.counts[counter]);
  if (adds.length === 0) throw new Error('A usage increment adds nothing.');
  return {
    Update: {
      TableName: tableName(),
      Key: keys.usage(increment.tenantId, month, shardOf(increment.shardBy, USAGE_SHARDS)),
      UpdateExpression: `SET #entity = :entity, #tenant = :tenant, #month = :month ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Adds usage on its own, for counted writes that are not transactions. */
export async function addUsage(increment: UsageIncrement): Promise<void> {
  const { Update } = usageUpdate(increment);
  await documentClient().send(new UpdateCommand(Update!));
}

/** A tenant's usage of `month` (`YYYY-MM`): the sum of its counter shards, zeros when none. */
export async function readUsage(tenantId: string, month: string): Promise<UsageCounts> {
  const shards = await queryAll<Record<string, unknown>>({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :month)',
    ExpressionAttributeValues: { ':pk': keys.usagePartition(tenantId), ':month': `${month}#` },
    ConsistentRead: true,
  });
  const usage: UsageCounts = { totals: Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, 0])) as UsageCounts['totals'], byTaskType: [] };
  const byKey = new Map<string, UsageCounts['byTaskType'][number]>();
  for (const shard of shards) {
    for (const [attribute, value] of Object.entries(shard)) {
      if (typeof value !== 'number') continue;
      if ((USAGE_COUNTERS as readonly string[]).includes(attribute)) {
        usage.totals[attribute as UsageCounter] += value;
        continue;
      }
      const parts = attribute.split('|');
      if (parts[0] !== BY || parts.length < 4) continue;
      const agent = parts[1];
      const counter = parts.at(-1) as AgentUsageCounter;
      const taskType = parts.slice(2, -1).join('|');
      const key = `${agent}|${taskType}`;
      let row = byKey.get(key);
      if (!row) {
        row = { agent, task_type: taskType, tasks_created: 0, tasks_completed: 0, task_seconds: 0 };
        byKey.set(key, row);
        usage.byTaskType.push(row);
      }
      if ((AGENT_USAGE_COUNTERS as readonly string[]).includes(counter)) row[counter] += value;
    }
  }
  usage.totals.task_seconds = roundSeconds(usage.totals.task_seconds);
  for (const row of usage.byTaskType) row.task_seconds = roundSeconds(row.task_seconds);
  return usage;
}
