import { ACTIVE_TASK_SHARDS, defineEntity, indexKey, shardOf, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';
import type { TaskPriority } from '#shared/domain/task';
import { isDispatchable, type TaskStatus } from '#shared/domain/task-state';

const taskPartition = (tenantId: string, taskId: string) => `${tenant(tenantId)}#TASK#${taskId}`;
const tasksPartition = (tenantId: string) => `${tenant(tenantId)}#TASKS`;
const tasksByAgentPartition = (tenantId: string, agentSlug: string) => `${tenant(tenantId)}#AGENT#${agentSlug}#TASKS`;
const activeShardPartition = (shard: number) => `ACTIVE_TASKS#${shard}`;

/** A task: its own partition (shared with its stored-apart input), listed per tenant and per agent. */
export const taskEntity = defineEntity({
  entity: 'task',
  tenantScoped: true,
  keys: {
    task: (tenantId: string, taskId: string): Key => ({ pk: taskPartition(tenantId, taskId), sk: 'TASK' }),
    taskListing: (tenantId: string, taskId: string) => indexKey('gsi1', tasksPartition(tenantId), taskId),
    tasksPartition,
    taskByAgentListing: (tenantId: string, agentSlug: string, taskId: string) => indexKey('gsi2', tasksByAgentPartition(tenantId, agentSlug), taskId),
    tasksByAgentPartition,
    activeTask: (tenantId: string, taskId: string) => indexKey('gsi3', activeShardPartition(shardOf(taskId, ACTIVE_TASK_SHARDS)), `${tenantId}#${taskId}`),
  },
  primaryKey: 'task',
  indexes: [
    { index: 'gsi1', key: 'taskListing', copies: 'ALL' },
    // The per-agent listing filters on status and reads the page's tasks from the table, so a
    // running task's step writes never rewrite this index.
    { index: 'gsi2', key: 'taskByAgentListing', copies: ['status'] },
    {
      index: 'gsi3',
      key: 'activeTask',
      // What identifies the work, all set at creation; the sweeper reads the task itself from the table.
      copies: ['tenant_id', 'task_id', 'priority'],
      sparse: {
        rule: 'while the task waits to be dispatched or runs (queued, pending, running); out while parked on an approval and once it ended',
        holds: (item) => isDispatchable(item.status as TaskStatus),
      },
    },
  ],
  sharedPartitions: { activeShardPartition },
});

/** A priority's place in the claim queue's sort key: `high` sorts first. */
const PRIORITY_RANK: Record<TaskPriority, number> = { high: 1, normal: 2, low: 3 };
const claimQueuePartition = (tenantId: string, agentSlug: string) => `${tenant(tenantId)}#AGENT#${agentSlug}#QUEUE`;

/**
 * A custom agent's task waiting for a worker: one small item in its agent's queue partition,
 * sorted by priority, then by task id (a ULID: oldest first). Put in the transaction that makes
 * the task wait (creation, a lost or returned lease, a decided approval), deleted in the one that
 * ends the wait (a claim, a cancel, a rejection). A claim reads the head of the partition with a
 * strongly consistent Query (no index lag, no scan) and wins the task with a conditional write.
 */
export const claimQueueEntryEntity = defineEntity({
  entity: 'claim_queue_entry',
  tenantScoped: true,
  keys: {
    claimQueueEntry: (tenantId: string, agentSlug: string, priority: TaskPriority, taskId: string): Key => ({ pk: claimQueuePartition(tenantId, agentSlug), sk: `${PRIORITY_RANK[priority]}#${taskId}` }),
    claimQueuePartition,
  },
  primaryKey: 'claimQueueEntry',
  indexes: [],
});

/** A task input larger than one write unit, stored once beside its task (task-input.ts). */
export const taskInputEntity = defineEntity({
  entity: 'task_input',
  tenantScoped: true,
  keys: {
    taskInput: (tenantId: string, taskId: string): Key => ({ pk: taskPartition(tenantId, taskId), sk: 'INPUT' }),
  },
  primaryKey: 'taskInput',
  indexes: [],
});
