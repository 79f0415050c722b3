import { GSI1, GSI2, GSI3 } from '#shared/adapters/dynamodb/table-definition';

/**
 * Key builders for every record type, in one place. Every tenant-owned key starts with the
 * tenant, so no query or read can reach another tenant's items by construction.
 */
export type Key = { pk: string; sk: string };

const tenant = (tenantId: string) => `TENANT#${tenantId}`;

/** Number of shards of the active-task index; spread so one busy tenant does not heat one key. */
export const ACTIVE_TASK_SHARDS = 4;
/** Partitions a tenant's events of one day are spread over (see docs/data-model.md). */
export const EVENT_SHARDS = 4;

/** A stable shard for an id, from its characters. */
export function shardOf(id: string, shards: number): number {
  let sum = 0;
  for (const char of id) sum = (sum * 31 + char.charCodeAt(0)) % 1_000_003;
  return sum % shards;
}

/**
 * Partition keys of the request budgets begin with this. Functions of read-only routes may write
 * only there (an IAM `dynamodb:LeadingKeys` condition), so it must not prefix anything else.
 */
export const RATE_LIMIT_PARTITION_PREFIX = 'RATELIMIT#';

export const keys = {
  apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  apiKeyListing: (tenantId: string, keyId: string) => ({ [GSI1.partitionKey]: 'APIKEYS', [GSI1.sortKey]: `${tenantId}#${keyId}` }),

  agent: (tenantId: string, slug: string): Key => ({ pk: tenant(tenantId), sk: `AGENT#${slug}` }),
  agentPrefix: 'AGENT#',
  tenantPartition: (tenantId: string) => tenant(tenantId),
  /** The tenant's plan and retention choice (one item; absent = default plan, plan defaults). */
  tenantSettings: (tenantId: string): Key => ({ pk: tenant(tenantId), sk: 'SETTINGS' }),

  task: (tenantId: string, taskId: string): Key => ({ pk: `${tenant(tenantId)}#TASK#${taskId}`, sk: 'TASK' }),
  /** A large task input, stored once beside its task (shared/adapters/dynamodb/task-input.ts). */
  taskInput: (tenantId: string, taskId: string): Key => ({ pk: `${tenant(tenantId)}#TASK#${taskId}`, sk: 'INPUT' }),
  taskListing: (tenantId: string, taskId: string) => ({ [GSI1.partitionKey]: `${tenant(tenantId)}#TASKS`, [GSI1.sortKey]: taskId }),
  tasksPartition: (tenantId: string) => `${tenant(tenantId)}#TASKS`,
  taskByAgentListing: (tenantId: string, agentSlug: string, taskId: string) => ({
    [GSI2.partitionKey]: `${tenant(tenantId)}#AGENT#${agentSlug}#TASKS`,
    [GSI2.sortKey]: taskId,
  }),
  tasksByAgentPartition: (tenantId: string, agentSlug: string) => `${tenant(tenantId)}#AGENT#${agentSlug}#TASKS`,
  activeTask: (tenantId: string, taskId: string) => ({
    [GSI3.partitionKey]: activeShard(taskId),
    [GSI3.sortKey]: `${tenantId}#${taskId}`,
  }),
  activeShardPartition: (shard: number) => `ACTIVE_TASKS#${shard}`,

  artifact: (tenantId: string, artifactId: string): Key => ({ pk: `${tenant(tenantId)}#ARTIFACT#${artifactId}`, sk: 'ARTIFACT' }),

  /** Events of one tenant-day, spread over EVENT_SHARDS partitions by event id. */
  event: (tenantId: string, day: string, shard: number, eventId: string): Key => ({ pk: keys.eventShardPartition(tenantId, day, shard), sk: eventId }),
  eventShardPartition: (tenantId: string, day: string, shard: number) => `${tenant(tenantId)}#EVENTS#${day}#${shard}`,
  eventsOfTaskListing: (tenantId: string, taskId: string, eventId: string) => ({ [GSI1.partitionKey]: keys.eventsOfTaskPartition(tenantId, taskId), [GSI1.sortKey]: eventId }),
  eventsOfTaskPartition: (tenantId: string, taskId: string) => `${tenant(tenantId)}#TASK#${taskId}#EVENTS`,
  /** One marker per tenant and day that has events, so listings skip empty days. */
  eventDay: (tenantId: string, day: string): Key => ({ pk: `${tenant(tenantId)}#EVENTDAYS`, sk: day }),
  eventDaysPartition: (tenantId: string) => `${tenant(tenantId)}#EVENTDAYS`,

  approval: (tenantId: string, approvalId: string): Key => ({ pk: `${tenant(tenantId)}#APPROVAL#${approvalId}`, sk: 'APPROVAL' }),
  approvalListing: (tenantId: string, status: string, approvalId: string) => ({ [GSI1.partitionKey]: keys.approvalsPartition(tenantId, status), [GSI1.sortKey]: approvalId }),
  approvalsPartition: (tenantId: string, status: string) => `${tenant(tenantId)}#APPROVALS#${status}`,
  /** Approvals waiting for a human (sparse; the sweeper counts them for the ApprovalsPending gauge). */
  pendingApproval: (tenantId: string, approvalId: string) => ({ [GSI3.partitionKey]: keys.pendingApprovalPartition(shardOf(approvalId, ACTIVE_TASK_SHARDS)), [GSI3.sortKey]: `${tenantId}#${approvalId}` }),
  pendingApprovalPartition: (shard: number) => `PENDING_APPROVALS#${shard}`,
  /** Approved actions the tool proxy has not executed yet (sparse; recovery re-dispatches them). */
  pendingToolCall: (tenantId: string, approvalId: string) => ({ [GSI3.partitionKey]: `ACTIVE_TOOL_CALLS#${shardOf(approvalId, ACTIVE_TASK_SHARDS)}`, [GSI3.sortKey]: `${tenantId}#${approvalId}` }),
  pendingToolCallPartition: (shard: number) => `ACTIVE_TOOL_CALLS#${shard}`,

  webhook: (tenantId: string, webhookId: string): Key => ({ pk: `${tenant(tenantId)}#WEBHOOK#${webhookId}`, sk: 'WEBHOOK' }),
  webhookListing: (tenantId: string, webhookId: string) => ({ [GSI1.partitionKey]: keys.webhooksPartition(tenantId), [GSI1.sortKey]: webhookId }),
  webhooksPartition: (tenantId: string) => `${tenant(tenantId)}#WEBHOOKS`,
  delivery: (tenantId: string, webhookId: string, eventId: string): Key => ({ pk: keys.deliveriesPartition(tenantId, webhookId), sk: eventId }),
  deliveriesPartition: (tenantId: string, webhookId: string) => `${tenant(tenantId)}#WEBHOOK#${webhookId}#DELIVERIES`,
  /** A large delivery body, stored once apart from its delivery's attempt log (webhook-repository.ts). */
  deliveryBody: (tenantId: string, webhookId: string, eventId: string): Key => ({ pk: `${tenant(tenantId)}#WEBHOOK#${webhookId}#BODIES`, sk: eventId }),

  project: (tenantId: string, projectId: string): Key => ({ pk: `${tenant(tenantId)}#PROJECT#${projectId}`, sk: 'PROJECT' }),
  projectListing: (tenantId: string, projectId: string) => ({ [GSI1.partitionKey]: `${tenant(tenantId)}#PROJECTS`, [GSI1.sortKey]: projectId }),
  projectsPartition: (tenantId: string) => `${tenant(tenantId)}#PROJECTS`,
  scan: (tenantId: string, scanId: string): Key => ({ pk: `${tenant(tenantId)}#SCAN#${scanId}`, sk: 'SCAN' }),
  scanListing: (tenantId: string, projectId: string, scanId: string) => ({ [GSI1.partitionKey]: keys.scansPartition(tenantId, projectId), [GSI1.sortKey]: scanId }),
  scansPartition: (tenantId: string, projectId: string) => `${tenant(tenantId)}#PROJECT#${projectId}#SCANS`,
  activeScan: (tenantId: string, scanId: string) => ({ [GSI3.partitionKey]: `ACTIVE_SCANS#${shardOf(scanId, ACTIVE_TASK_SHARDS)}`, [GSI3.sortKey]: `${tenantId}#${scanId}` }),
  activeScanPartition: (shard: number) => `ACTIVE_SCANS#${shard}`,
  finding: (tenantId: string, findingId: string): Key => ({ pk: `${tenant(tenantId)}#FINDING#${findingId}`, sk: 'FINDING' }),
  findingListing: (tenantId: string, projectId: string, findingId: string) => ({ [GSI1.partitionKey]: keys.projectFindingsPartition(tenantId, projectId), [GSI1.sortKey]: findingId }),
  projectFindingsPartition: (tenantId: string, projectId: string) => `${tenant(tenantId)}#PROJECT#${projectId}#FINDINGS`,
  occurrence: (tenantId: string, scanId: string, sortKey: string): Key => ({ pk: keys.occurrencesPartition(tenantId, scanId), sk: sortKey }),
  occurrencesPartition: (tenantId: string, scanId: string) => `${tenant(tenantId)}#SCAN#${scanId}#FINDINGS`,
  ruleHistory: (tenantId: string, projectId: string, ruleId: string, scanId: string): Key => ({ pk: keys.ruleHistoryPartition(tenantId, projectId, ruleId), sk: scanId }),
  ruleHistoryPartition: (tenantId: string, projectId: string, ruleId: string) => `${tenant(tenantId)}#PROJECT#${projectId}#RULE#${ruleId}#HISTORY`,

  idempotency: (tenantId: string, idempotencyKey: string): Key => ({ pk: `${tenant(tenantId)}#IDEMPOTENCY#${idempotencyKey}`, sk: 'IDEMPOTENCY' }),

  /** A tenant's request budget (GCRA state); its own partition so read-only routes can write it and nothing else. */
  rateLimitBucket: (tenantId: string): Key => ({ pk: `${RATE_LIMIT_PARTITION_PREFIX}${tenantId}`, sk: 'BUCKET' }),
  /** A tenant's limits set by an operator (`npm run keys -- limits`), overriding the defaults. */
  tenantLimits: (tenantId: string): Key => ({ pk: tenant(tenantId), sk: 'LIMITS' }),
  /** Leases of the tasks a tenant has running: the cap on its share of the workers. */
  taskSlots: (tenantId: string): Key => ({ pk: `${tenant(tenantId)}#TASKSLOTS`, sk: 'TASKSLOTS' }),
};

function activeShard(taskId: string): string {
  return `ACTIVE_TASKS#${shardOf(taskId, ACTIVE_TASK_SHARDS)}`;
}
