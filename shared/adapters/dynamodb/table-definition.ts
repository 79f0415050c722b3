/**
 * The single table's physical shape, declared once. The CDK data construct and the local
 * runtime both build the table from this; `docs/data-model.md` explains every key.
 */
export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  /**
   * Non-key attributes copied into the index: 'ALL', or the listed ones (none = KEYS_ONLY). An
   * update that changes neither the index's keys nor an attribute it copies does not write to the
   * index at all, so an index that copies only attributes set once is not rewritten by every
   * update of its items (docs/data-model.md).
   */
  projection: 'ALL' | readonly string[];
}

export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/** Tenant-wide listings, newest or oldest first (tasks, events, API keys). */
export const GSI1: IndexDefinition = { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' };
/**
 * Per-agent task listings: keys and the status the listing filters on; the listing reads the
 * tasks themselves from the table, so the running task's step writes never touch this index.
 */
export const GSI2: IndexDefinition = { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: ['status'] };
/**
 * Sparse index of work still owed (tasks a dispatcher owes, scans, approved tool calls, and the
 * local scheduler's due schedules), sharded to avoid a hot key. It copies only what its readers
 * use, all set when the item enters the index (the local scheduler's claim aside).
 */
export const GSI3: IndexDefinition = {
  indexName: 'gsi3',
  partitionKey: 'gsi3pk',
  sortKey: 'gsi3sk',
  projection: ['tenant_id', 'task_id', 'priority', 'scan_id', 'approval_id', 'name', 'at', 'target', 'payload', 'attempts', 'claimed_until'],
};

export const GLOBAL_SECONDARY_INDEXES: readonly IndexDefinition[] = [GSI1, GSI2, GSI3];

/** Epoch seconds after which DynamoDB TTL deletes the item. */
export const TTL_ATTRIBUTE = 'expires_at_epoch';

/** The index's projection as DynamoDB's CreateTable and CloudFormation spell it. */
export function projectionOf(index: IndexDefinition): { ProjectionType: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; NonKeyAttributes?: string[] } {
  if (index.projection === 'ALL') return { ProjectionType: 'ALL' };
  if (index.projection.length === 0) return { ProjectionType: 'KEYS_ONLY' };
  return { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] };
}
