/**
 * The shape of an entity declaration: per record type of the single table, its key builders,
 * the secondary indexes it belongs to (with the rule of a sparse one) and the attributes each
 * index must copy for the readers that read the index itself. keys.ts assembles the key builders;
 * table-definition.ts derives the indexes and their projections from the declarations.
 */

/** A record's primary key. */
export type Key = { pk: string; sk: string };

/** An item as DynamoDB holds it, for the sparse-index rules. */
export type StoredItem = Readonly<Record<string, unknown>>;

/** The secondary indexes and their key attributes; what each copies is derived from the entities. */
export const INDEX_KEYS = {
  gsi1: { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  gsi2: { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  gsi3: { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
} as const;

export type IndexName = keyof typeof INDEX_KEYS;

/** An item's key attributes in `index`. */
export function indexKey(index: IndexName, partition: string, sort: string): Record<string, string> {
  return { [INDEX_KEYS[index].partitionKey]: partition, [INDEX_KEYS[index].sortKey]: sort };
}

/** The partition-key prefix of everything a tenant owns. */
export const tenant = (tenantId: string) => `TENANT#${tenantId}`;

/** Shards of the work indexes (tasks, scans, approvals in gsi3), so one busy tenant does not heat one key. */
export const ACTIVE_TASK_SHARDS = 4;

/** A stable shard for an id, from its characters. */
export function shardOf(id: string, shards: number): number {
  let sum = 0;
  for (const char of id) sum = (sum * 31 + char.charCodeAt(0)) % 1_000_003;
  return sum % shards;
}

/** One index an entity's items belong to. */
export interface IndexMembership<K> {
  index: IndexName;
  /** The entity's key builder that gives an item's keys in this index. */
  key: K;
  /**
   * The non-key attributes the readers of the index itself use: 'ALL' when they read whole
   * items from it, else the list (empty: keys only, readers go to the table for the rest).
   */
  copies: 'ALL' | readonly string[];
  /** For a sparse membership: when an item is in the index, in words and as a predicate on the item. */
  sparse?: { rule: string; holds: (item: StoredItem) => boolean };
}

export interface EntityDefinition<K extends Record<string, unknown>> {
  /** The `entity` attribute its items carry. */
  entity: string;
  /**
   * True when every key starts with its tenant (`TENANT#<t>` in a partition key, or `<t>#` in the
   * sort key of an index shared across tenants), so no read can reach another tenant's items.
   * False only where a key must be found without the tenant; the declaration says why.
   */
  tenantScoped: boolean;
  /** Key builders (tenant first where tenant-scoped), for the repositories through `keys`. */
  keys: K;
  /** The builder of the primary key. */
  primaryKey: keyof K & string;
  indexes: readonly IndexMembership<keyof K & string>[];
  /** Builders of index partitions shared by all tenants (readers that sweep a sharded index). */
  sharedPartitions?: Record<string, (shard: number) => string>;
}

/** Declares an entity; the identity function keeps the builders' types for keys.ts. */
export function defineEntity<const K extends Record<string, unknown>, const S extends Record<string, (shard: number) => string> = Record<never, never>>(
  definition: EntityDefinition<K> & { sharedPartitions?: S },
): EntityDefinition<K> & { sharedPartitions: S } {
  return { ...definition, sharedPartitions: definition.sharedPartitions ?? ({} as S) };
}
