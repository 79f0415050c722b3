/**
 * The single table's physical shape, declared once. The CDK data construct and the local
 * runtime both build the table from this; `docs/data-model.md` explains every key.
 */
export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/** Tenant-wide listings, newest or oldest first (tasks, events, API keys). */
export const GSI1: IndexDefinition = { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' };
/** Per-agent task listings. */
export const GSI2: IndexDefinition = { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' };
/** Sparse index of tasks a dispatcher still owes work to, sharded to avoid a hot key. */
export const GSI3: IndexDefinition = { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' };

export const GLOBAL_SECONDARY_INDEXES: readonly IndexDefinition[] = [GSI1, GSI2, GSI3];

/** Epoch seconds after which DynamoDB TTL deletes the item. */
export const TTL_ATTRIBUTE = 'expires_at_epoch';
