import { ACTIVE_TASK_SHARDS, defineEntity, indexKey, shardOf, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const approvalsPartition = (tenantId: string, status: string) => `${tenant(tenantId)}#APPROVALS#${status}`;
const pendingApprovalPartition = (shard: number) => `PENDING_APPROVALS#${shard}`;
const pendingToolCallPartition = (shard: number) => `ACTIVE_TOOL_CALLS#${shard}`;
/** What identifies the approval, set at creation; readers read the approval itself from the table. */
const WORK_COPIES = ['tenant_id', 'approval_id'] as const;

/** An approval a task asked for: listed by status; in gsi3 while a human or the tool proxy owes it something. */
export const approvalEntity = defineEntity({
  entity: 'approval',
  tenantScoped: true,
  keys: {
    approval: (tenantId: string, approvalId: string): Key => ({ pk: `${tenant(tenantId)}#APPROVAL#${approvalId}`, sk: 'APPROVAL' }),
    approvalListing: (tenantId: string, status: string, approvalId: string) => indexKey('gsi1', approvalsPartition(tenantId, status), approvalId),
    approvalsPartition,
    /** Approvals waiting for a human (the sweeper counts them for the ApprovalsPending gauge). */
    pendingApproval: (tenantId: string, approvalId: string) => indexKey('gsi3', pendingApprovalPartition(shardOf(approvalId, ACTIVE_TASK_SHARDS)), `${tenantId}#${approvalId}`),
    /** Approved actions the tool proxy has not executed yet (recovery re-dispatches them). */
    pendingToolCall: (tenantId: string, approvalId: string) => indexKey('gsi3', pendingToolCallPartition(shardOf(approvalId, ACTIVE_TASK_SHARDS)), `${tenantId}#${approvalId}`),
  },
  primaryKey: 'approval',
  indexes: [
    { index: 'gsi1', key: 'approvalListing', copies: 'ALL' },
    {
      index: 'gsi3',
      key: 'pendingApproval',
      copies: WORK_COPIES,
      sparse: { rule: 'while pending (a human has yet to decide)', holds: (item) => item.status === 'pending' },
    },
    {
      index: 'gsi3',
      key: 'pendingToolCall',
      copies: WORK_COPIES,
      sparse: { rule: 'once approved, until the tool proxy recorded its execution', holds: (item) => item.status === 'approved' && item.execution === undefined },
    },
  ],
  sharedPartitions: { pendingApprovalPartition, pendingToolCallPartition },
});
