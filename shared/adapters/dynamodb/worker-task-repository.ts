import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { artifactItem } from '#shared/adapters/dynamodb/artifact-repository';
import { keys } from '#shared/adapters/dynamodb/keys';
import { allOf, followsStep, leaseHeld, taskTransition, type ExpressionPart } from '#shared/adapters/dynamodb/task-transition';
import type { Artifact, ArtifactBudget } from '#shared/domain/artifact';
import type { ServiceEvent } from '#shared/domain/event';
import type { HeldLease } from '#shared/domain/ports';
import type { Task, TaskError } from '#shared/domain/task';
import type { ToolCallRecord } from '#shared/domain/tools';

/** A claim's new lease, as the task records it. */
export interface NewLease {
  lease_id: string;
  lease_expires_at: string;
  lease_seconds: number;
}

/** The condition of a write judged from a snapshot: nothing changed the task since it was read. */
const unchangedSince = (task: Pick<Task, 'updated_at'>): ExpressionPart => ({ expression: 'updated_at = :seenUpdatedAt', values: { ':seenUpdatedAt': task.updated_at } });

/** The lease the sweeper judged: same lease, not extended since (a heartbeat in between wins). */
const sameLease = (task: Pick<Task, 'lease_id' | 'lease_expires_at'>): ExpressionPart => ({
  expression: 'lease_id = :seenLease AND lease_expires_at = :seenExpiry',
  values: { ':seenLease': task.lease_id, ':seenExpiry': task.lease_expires_at },
});

/**
 * The task can take one more artifact of `bytes`: it lists fewer than the most, and their data
 * leaves room for it (a task from before the byte count has none, and counts from zero).
 */
const withinArtifactBudget = (budget: ArtifactBudget, bytes: number): ExpressionPart => ({
  expression: 'size(artifacts) < :maxArtifacts AND (attribute_not_exists(artifact_bytes) OR artifact_bytes <= :bytesLeft)',
  values: { ':maxArtifacts': budget.maxCount, ':bytesLeft': budget.maxBytes - bytes },
});

/**
 * The writes of a custom agent's tasks under the worker protocol (docs/workers.md). Each goes
 * through `taskTransition` like every task write, conditioned on the worker's lease, so a worker
 * that lost its lease (or whose task was cancelled) changes nothing; true when the write held.
 */
export class DynamoWorkerTaskRepository {
  /** The head of an agent's claim queue: waiting tasks by priority, oldest first (strongly consistent). */
  async queueHead(tenantId: string, agentSlug: string, limit: number): Promise<{ task_id: string }[]> {
    const { Items } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.claimQueuePartition(tenantId, agentSlug) },
        ProjectionExpression: 'task_id',
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (Items ?? []) as { task_id: string }[];
  }

  /** A worker takes the waiting task as read (`start` leaves the queue); the first claim also records `started_at`. */
  async claim(task: Task, lease: NewLease, at: string, events: ServiceEvent[]): Promise<boolean> {
    const fields = { ...lease, claim_count: (task.claim_count ?? 0) + 1, ...(task.started_at ? {} : { started_at: at }) };
    return Boolean(await taskTransition({ task, trigger: 'start', at, fields, condition: unchangedSince(task), events }));
  }

  /** Extends the lease; with progress, its `task.progress` event. */
  async heartbeat(task: Task, lease: HeldLease, expiresAt: string, at: string, events: ServiceEvent[]): Promise<boolean> {
    return Boolean(await taskTransition({ task, trigger: 'step', at, fields: { lease_expires_at: expiresAt }, condition: leaseHeld(lease), events }));
  }

  /** Call `step` of the task: an artifact, with `artifact.emitted`. */
  async emitArtifact(task: Task, lease: HeldLease, step: number, artifact: Artifact, event: ServiceEvent, budget: ArtifactBudget): Promise<boolean> {
    const summary = { artifact_id: artifact.artifact_id, type: artifact.type, created_at: artifact.created_at, step, ...(artifact.retention_version !== undefined ? { retention_version: artifact.retention_version } : {}) };
    const bytes = artifact.data_bytes ?? 0;
    return Boolean(
      await taskTransition({
        task,
        trigger: 'step',
        at: event.created_at,
        fields: { step },
        update: {
          expression: 'artifacts.#artifactId = :summary, #artifactBytes = if_not_exists(#artifactBytes, :noBytes) + :bytes',
          names: { '#artifactId': artifact.artifact_id, '#artifactBytes': 'artifact_bytes' },
          values: { ':summary': summary, ':noBytes': 0, ':bytes': bytes },
        },
        condition: allOf(followsStep(step - 1), leaseHeld(lease), withinArtifactBudget(budget, bytes)),
        items: [{ Put: { TableName: tableName(), Item: artifactItem(artifact), ConditionExpression: 'attribute_not_exists(pk)' } }],
        events: [event],
      }),
    );
  }

  /** Call `step` of the task: a tool call's record, with `tool_call.executed`. */
  async recordToolCall(task: Task, lease: HeldLease, record: ToolCallRecord, event: ServiceEvent): Promise<boolean> {
    const item = { ...keys.toolCall(task.tenant_id, task.task_id, record.step), entity: 'tool_call', tenant_id: task.tenant_id, ...record };
    return Boolean(
      await taskTransition({
        task,
        trigger: 'step',
        at: event.created_at,
        fields: { step: record.step },
        condition: allOf(followsStep(record.step - 1), leaseHeld(lease)),
        items: [{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }],
        events: [event],
      }),
    );
  }

  complete(task: Task, lease: HeldLease, event: ServiceEvent): Promise<boolean> {
    return this.end(task, 'complete', { completed_at: event.created_at }, leaseHeld(lease), event);
  }

  fail(task: Task, lease: HeldLease, error: TaskError, event: ServiceEvent): Promise<boolean> {
    return this.end(task, 'fail', { completed_at: event.created_at, error }, leaseHeld(lease), event);
  }

  /** The worker gives the task back (shutting down): it waits in the queue again, no lease lost. */
  async release(task: Task, lease: HeldLease, event: ServiceEvent): Promise<boolean> {
    return Boolean(await taskTransition({ task, trigger: 'release', at: event.created_at, condition: leaseHeld(lease), events: [event] }));
  }

  /** The sweeper: the lease it saw ran out; the task waits in the queue again, one more lease lost. */
  async requeueExpired(task: Task, lostLeases: number, event: ServiceEvent): Promise<boolean> {
    return Boolean(await taskTransition({ task, trigger: 'release', at: event.created_at, fields: { lost_leases: lostLeases }, condition: sameLease(task), events: [event] }));
  }

  /** The sweeper: the lease it saw was the last one the task may lose; it fails `agent_timeout`. */
  timeOutExpired(task: Task, lostLeases: number, error: TaskError, event: ServiceEvent): Promise<boolean> {
    return this.end(task, 'time_out', { completed_at: event.created_at, error, lost_leases: lostLeases }, sameLease(task), event);
  }

  /** A waiting task fails before any worker sees it (input that breaks its task type's schema). */
  async reject(task: Task, error: TaskError, event: ServiceEvent): Promise<boolean> {
    return Boolean(await taskTransition({ task, trigger: 'reject', at: event.created_at, fields: { completed_at: event.created_at, error }, events: [event] }));
  }

  private async end(task: Task, trigger: 'complete' | 'fail' | 'time_out', fields: Record<string, unknown>, condition: ExpressionPart, event: ServiceEvent): Promise<boolean> {
    return Boolean(await taskTransition({ task, trigger, at: event.created_at, fields, condition, events: [event] }));
  }
}

export const workerTaskRepository = new DynamoWorkerTaskRepository();
