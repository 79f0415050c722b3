import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { queryPage } from '#shared/adapters/dynamodb/paged-query';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { itemsOfShardedIndex } from '#shared/adapters/dynamodb/sharded-index';
import { ACTIVE_TASK_SHARDS, keys } from '#shared/adapters/dynamodb/keys';
import { GSI1, GSI3, TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { allOf, followsStep, leaseHeld, storedTaskState, taskTransition, type TransactItem } from '#shared/adapters/dynamodb/task-transition';
import { transactWrite } from '#shared/adapters/dynamodb/transact-write';
import { usageUpdate } from '#shared/adapters/dynamodb/usage-repository';
import type { ApprovalDecision } from '#shared/agents/agent';
import type { Approval, ApprovalStatus } from '#shared/domain/approval';
import type { ArtifactApprovalStatus } from '#shared/domain/artifact';
import { expiryEpoch } from '#shared/domain/retention';
import type { ServiceEvent } from '#shared/domain/event';
import type { HeldLease, StepOutcome } from '#shared/domain/ports';
import type { Task } from '#shared/domain/task';
import { refusedStepOutcome } from '#shared/domain/task-state';

type Item = Record<string, NativeAttributeValue>;

/** What a resolution writes besides the approval itself. */
export interface ResolutionWrites {
  status: Exclude<ApprovalStatus, 'pending'>;
  fields: Pick<Approval, 'decision' | 'resolution' | 'resolved_at' | 'action'> & Partial<Pick<Approval, 'comment' | 'original_action' | 'resolved_by'>>;
  event: ServiceEvent;
  /** The gated artifact's new status, when the artifact still exists and is pending. */
  artifactStatus?: ArtifactApprovalStatus;
  /** The gated artifact's expiry once acted on (retention instead of the 7-day limit), with the settings version it came from. */
  artifactRetention?: { expires_at: string | null; retention_version: number };
  /** Resume the parked task with this decision (the task must still be awaiting approval). */
  resume?: { task: Task; decision: ApprovalDecision };
  /** Leave the approval in the index of actions the tool proxy still owes. */
  toolCallPending?: boolean;
}

/** Approvals: one item each, listed by status (gsi1), newest first. */
export class DynamoApprovalRepository {
  private get client() {
    return documentClient();
  }

  /**
   * Agent-context call `step` asks for approval: the task parks (`pause`), the approval and
   * `approval.requested` are written, all in one transaction that holds only if exactly `step - 1`
   * calls were applied before.
   */
  async pause(task: Task, step: number, approval: Approval, event: ServiceEvent, lease?: HeldLease): Promise<StepOutcome> {
    const approvalPut: TransactItem = {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.approval(approval.tenant_id, approval.approval_id),
          ...keys.approvalListing(approval.tenant_id, 'pending', approval.approval_id),
          ...keys.pendingApproval(approval.tenant_id, approval.approval_id),
          entity: 'approval',
          ...approval,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    const usage = usageUpdate({ tenantId: approval.tenant_id, at: event.created_at, shardBy: approval.approval_id, counts: { approvals: 1 } });
    // A worker's lease ends here: it learns of the decision from its next claim (docs/workers.md).
    const condition = lease ? allOf(followsStep(step - 1), leaseHeld(lease)) : followsStep(step - 1);
    const paused = await taskTransition({ task, trigger: 'pause', at: event.created_at, fields: { step }, condition, items: [approvalPut, usage], events: [event] });
    return paused ? 'applied' : refusedStepOutcome(task.shape, 'pause', step, await storedTaskState(task));
  }

  async get(tenantId: string, approvalId: string): Promise<Approval | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.approval(tenantId, approvalId), ConsistentRead: true }));
    return Item ? stripKeys<Approval>(Item) : undefined;
  }

  /** The approval a task's call `step` created, if any (a replay looks for it). */
  async findForStep(task: Task, step: number): Promise<Approval | undefined> {
    for (const status of ['pending', 'approved', 'denied'] as const) {
      const { Items } = await this.client.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: GSI1.indexName,
          KeyConditionExpression: '#pk = :pk',
          FilterExpression: '#task = :task AND #step = :step',
          ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#task': 'task_id', '#step': 'step' },
          ExpressionAttributeValues: { ':pk': keys.approvalsPartition(task.tenant_id, status), ':task': task.task_id, ':step': step },
        }),
      );
      if (Items?.length) return stripKeys<Approval>(Items[0]);
    }
    return undefined;
  }

  async list(tenantId: string, query: { status: ApprovalStatus; agent?: string; taskId?: string; limit: number; cursor?: string }): Promise<{ approvals: Approval[]; nextCursor: string | null }> {
    const partition = keys.approvalsPartition(tenantId, query.status);
    const scope = `approvals|${partition}|${query.agent ?? ''}|${query.taskId ?? ''}`;
    let startKey: Item | undefined = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: GSI1.partitionKey, partition });
    const filters: string[] = [];
    // Names always go through placeholders: `agent` is one of DynamoDB's reserved words.
    const names: Record<string, string> = { '#pk': GSI1.partitionKey };
    const values: Item = { ':pk': partition };
    if (query.agent) {
      filters.push('#agent = :agent');
      names['#agent'] = 'agent';
      values[':agent'] = query.agent;
    }
    if (query.taskId) {
      filters.push('#task = :task');
      names['#task'] = 'task_id';
      values[':task'] = query.taskId;
    }
    const page = await queryPage<Approval>(
      {
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
      },
      query.limit,
      startKey,
    );
    const approvals = page.items;
    startKey = page.lastKey;
    return { approvals, nextCursor: await encodeCursor(tenantId, scope, startKey) };
  }

  /** Pending approvals of a tenant past their expiry (the schedule may be late). */
  async expiredPending(tenantId: string, now: string, limit = 100): Promise<Approval[]> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: '#expires <= :now',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#expires': 'expires_at' },
        ExpressionAttributeValues: { ':pk': keys.approvalsPartition(tenantId, 'pending'), ':now': now },
        Limit: limit,
      }),
    );
    return (Items ?? []).map((item) => stripKeys<Approval>(item));
  }

  /**
   * Resolves a pending approval in one transaction: the approval (condition: still pending), the
   * gated artifact's status, `approval.resolved`, and, when given, the parked task's resume.
   * Returns false when the approval was no longer pending or the task no longer parked.
   */
  async resolve(approval: Approval, writes: ResolutionWrites): Promise<boolean> {
    const names: Record<string, string> = { '#status': 'status', '#gsi1pk': GSI1.partitionKey };
    const values: Item = { ':status': writes.status, ':pending': 'pending', ':gsi1pk': keys.approvalsPartition(approval.tenant_id, writes.status) };
    const sets = ['#status = :status', '#gsi1pk = :gsi1pk'];
    for (const [field, value] of Object.entries(writes.fields)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
    // The approval leaves the pending-approvals index: into the index of actions the tool proxy
    // still owes, or out of gsi3 altogether.
    names['#gsi3pk'] = GSI3.partitionKey;
    names['#gsi3sk'] = GSI3.sortKey;
    if (writes.toolCallPending) {
      const pending = keys.pendingToolCall(approval.tenant_id, approval.approval_id);
      values[':gsi3pk'] = pending[GSI3.partitionKey];
      values[':gsi3sk'] = pending[GSI3.sortKey];
      sets.push('#gsi3pk = :gsi3pk', '#gsi3sk = :gsi3sk');
    }
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.approval(approval.tenant_id, approval.approval_id),
          UpdateExpression: `SET ${sets.join(', ')}${writes.toolCallPending ? '' : ' REMOVE #gsi3pk, #gsi3sk'}`,
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    ];
    if (writes.artifactStatus && approval.artifact_id) {
      const retention = writes.artifactRetention;
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.artifact(approval.tenant_id, approval.artifact_id),
          UpdateExpression: retention
            ? `SET approval_status = :to, expires_at = :expiresAt, retention_version = :version${retention.expires_at ? ', #ttl = :epoch' : ' REMOVE #ttl'}`
            : 'SET approval_status = :to',
          // A newer retention stamp than the one computed here wins: the resolution re-reads and retries.
          ConditionExpression: retention ? 'approval_status = :pending AND (attribute_not_exists(retention_version) OR retention_version <= :version)' : 'approval_status = :pending',
          ...(retention ? { ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE } } : {}),
          ExpressionAttributeValues: {
            ':to': writes.artifactStatus,
            ':pending': 'pending',
            ...(retention ? { ':expiresAt': retention.expires_at, ':version': retention.retention_version, ...(retention.expires_at ? { ':epoch': expiryEpoch(retention.expires_at) } : {}) } : {}),
          },
        },
      });
    }
    return this.commit(items, writes.event, writes.resume && { ...writes.resume, step: approval.step, at: writes.event.created_at });
  }

  /** Records the executed action with `tool_call.executed` and, when given, resumes the task. */
  async recordExecution(approval: Approval, execution: NonNullable<Approval['execution']>, event: ServiceEvent, resume?: { task: Task; decision: ApprovalDecision }): Promise<boolean> {
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.approval(approval.tenant_id, approval.approval_id),
          UpdateExpression: `SET execution = :execution REMOVE ${GSI3.partitionKey}, ${GSI3.sortKey}`,
          ConditionExpression: 'attribute_not_exists(execution) AND #status = :approved',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':execution': execution, ':approved': 'approved' },
        },
      },
      usageUpdate({ tenantId: approval.tenant_id, at: execution.executed_at, shardBy: approval.approval_id, counts: { tool_calls: 1 } }),
    ];
    return this.commit(items, event, resume && { ...resume, step: approval.step, at: event.created_at });
  }

  /** Resumes a task parked on an approval whose execution is already recorded. */
  resumeTask(task: Task, step: number, decision: ApprovalDecision, now: string): Promise<boolean> {
    return this.commit([], undefined, { task, step, decision, at: now });
  }

  /**
   * Writes an approval's items and event in one transaction; with `resume`, the parked task's
   * `resume` (the decision recorded for its call `step`) joins it. False when a condition failed.
   */
  private async commit(items: TransactItem[], event: ServiceEvent | undefined, resume?: { task: Task; step: number; decision: ApprovalDecision; at: string }): Promise<boolean> {
    const events = event ? [event] : [];
    if (resume) {
      const decision = { expression: 'decisions.#step = :decision', names: { '#step': String(resume.step) }, values: { ':decision': resume.decision } };
      return Boolean(await taskTransition({ task: resume.task, trigger: 'resume', at: resume.at, fields: { resumed_at: resume.at }, update: decision, items, events }));
    }
    try {
      await transactWrite([...items, ...(await Promise.all(events.map((one) => eventPut(one))))]);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** How many approvals wait for a human, across tenants (the ApprovalsPending gauge): counted, not read. */
  async countPending(): Promise<number> {
    let total = 0;
    for (let shard = 0; shard < ACTIVE_TASK_SHARDS; shard++) {
      let startKey: Item | undefined;
      do {
        const page = await this.client.send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: GSI3.indexName,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': GSI3.partitionKey },
            ExpressionAttributeValues: { ':pk': keys.pendingApprovalPartition(shard) },
            Select: 'COUNT',
            ExclusiveStartKey: startKey,
          }),
        );
        total += page.Count ?? 0;
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }
    return total;
  }

  /** Approved actions not executed yet, across tenants, with when they were approved (runtime start and sweeper re-dispatch them). */
  async *pendingToolCallSnapshots(): AsyncGenerator<Approval> {
    for await (const item of itemsOfShardedIndex(keys.pendingToolCallPartition, ACTIVE_TASK_SHARDS)) yield stripKeys<Approval>(item);
  }
}

export const approvalRepository = new DynamoApprovalRepository();
