import { ENTITIES } from '#shared/adapters/dynamodb/entities/all';
import { INDEX_KEYS, type IndexName } from '#shared/adapters/dynamodb/entities/entity';

/**
 * The single table's physical shape. The CDK data construct and the local runtime both build the
 * table from this; the secondary indexes and what they copy are derived from the entity
 * declarations (./entities); `docs/data-model.md` explains every key.
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

const membersOf = (index: IndexName) => ENTITIES.flatMap((entity) => entity.indexes.filter((membership) => membership.index === index));

/**
 * What an index copies: every attribute if some member's readers read whole items from it,
 * otherwise the union of the attributes its members ask for, in declaration order.
 */
export function derivedProjection(index: IndexName): IndexDefinition['projection'] {
  const members = membersOf(index);
  if (members.some((membership) => membership.copies === 'ALL')) return 'ALL';
  return [...new Set(members.flatMap((membership) => membership.copies))];
}

const indexDefinition = (index: IndexName): IndexDefinition => ({ ...INDEX_KEYS[index], projection: derivedProjection(index) });

/** Tenant-wide listings, newest or oldest first (tasks, events, API keys, approvals, webhooks, projects, scans, findings). */
export const GSI1 = indexDefinition('gsi1');
/** Per-agent task listings: keys and the status the listing filters on. */
export const GSI2 = indexDefinition('gsi2');
/**
 * Sparse index of work still owed (tasks a dispatcher owes, scans, approvals, approved tool calls,
 * and the local scheduler's due schedules), sharded to avoid a hot key. It copies only what its
 * readers use, all set when the item enters the index (the local scheduler's claim aside).
 */
export const GSI3 = indexDefinition('gsi3');

/** Every index some entity belongs to. */
export const GLOBAL_SECONDARY_INDEXES: readonly IndexDefinition[] = [GSI1, GSI2, GSI3].filter((index) => membersOf(index.indexName as IndexName).length > 0);

/** Epoch seconds after which DynamoDB TTL deletes the item. */
export const TTL_ATTRIBUTE = 'expires_at_epoch';

/** The index's projection as DynamoDB's CreateTable and CloudFormation spell it. */
export function projectionOf(index: IndexDefinition): { ProjectionType: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; NonKeyAttributes?: string[] } {
  if (index.projection === 'ALL') return { ProjectionType: 'ALL' };
  if (index.projection.length === 0) return { ProjectionType: 'KEYS_ONLY' };
  return { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] };
}
