import { describe, expect, it } from 'vitest';
import { ENTITIES } from '#shared/adapters/dynamodb/entities/all';
import { INDEX_KEYS } from '#shared/adapters/dynamodb/entities/entity';
import { scheduleEntity } from '#shared/adapters/dynamodb/entities/schedule';
import { keys } from '#shared/adapters/dynamodb/keys';
import { GLOBAL_SECONDARY_INDEXES, GSI1, GSI2, GSI3, TABLE_KEYS, projectionOf } from '#shared/adapters/dynamodb/table-definition';
import { TASK_STATUSES } from '#shared/domain/task-state';
import { taskEntity } from '#shared/adapters/dynamodb/entities/task';

type Builder = (...args: unknown[]) => unknown;
const TENANT = 'tnt-under-test';
/** Arguments for any builder of the entity: the tenant first (the scheduler's take a time and a name). */
const argsFor = (entity: (typeof ENTITIES)[number]): unknown[] => (entity === scheduleEntity ? [new Date(0), 'schedule-name'] : [TENANT, 'id-1', 'id-2', 'id-3']);
/** Every builder of an entity, called with the tenant first and placeholders for the rest. */
const built = (builders: Record<string, unknown>) =>
  Object.entries(builders).flatMap(([name, builder]) => (typeof builder === 'function' ? [{ name, value: (builder as Builder)(TENANT, 'id-1', 'id-2', 'id-3') }] : []));

describe('entity declarations', () => {
  it('derive the projections the deployed indexes have, which cover what each reader of an index asks for', () => {
    expect(GSI1.projection).toBe('ALL');
    expect(GSI2.projection).toEqual(['status']);
    // As deployed: DynamoDB cannot change an index's projection in place, so a change here rebuilds gsi3.
    expect(GSI3.projection).toEqual(['tenant_id', 'task_id', 'priority', 'scan_id', 'approval_id', 'name', 'at', 'target', 'payload', 'attempts', 'claimed_until']);
    expect(projectionOf(GSI3)).toEqual({ ProjectionType: 'INCLUDE', NonKeyAttributes: GSI3.projection });
    for (const entity of ENTITIES) {
      for (const membership of entity.indexes) {
        const index = GLOBAL_SECONDARY_INDEXES.find((candidate) => candidate.indexName === membership.index)!;
        if (index.projection === 'ALL') continue;
        expect(membership.copies, `${entity.entity} in ${membership.index}`).not.toBe('ALL');
        expect(index.projection, `${entity.entity} in ${membership.index}`).toEqual(expect.arrayContaining([...membership.copies]));
      }
    }
    // The local scheduler reads due schedules from gsi3 alone: everything it maps must be copied.
    expect(GSI3.projection).toEqual(expect.arrayContaining(['name', 'at', 'target', 'payload', 'attempts', 'claimed_until']));
  });

  it('list exactly the indexes some entity belongs to', () => {
    const used = new Set(ENTITIES.flatMap((entity) => entity.indexes.map((membership) => membership.index)));
    expect(GLOBAL_SECONDARY_INDEXES.map((index) => index.indexName).sort()).toEqual([...used].sort());
  });

  it('build primary keys of the table and index keys of the index each membership names', () => {
    for (const entity of ENTITIES) {
      const builders = entity.keys as Record<string, Builder>;
      expect(Object.keys(builders[entity.primaryKey](...argsFor(entity)) as object).sort(), entity.entity).toEqual([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey].sort());
      for (const membership of entity.indexes) {
        const { partitionKey, sortKey } = INDEX_KEYS[membership.index];
        expect(Object.keys(builders[membership.key](...argsFor(entity)) as object).sort(), `${entity.entity}.${membership.key}`).toEqual([partitionKey, sortKey].sort());
      }
    }
  });

  it('start every key of a tenant-scoped entity with its tenant', () => {
    for (const entity of ENTITIES.filter((candidate) => candidate.tenantScoped)) {
      for (const { name, value } of built(entity.keys)) {
        if (typeof value === 'string') {
          expect(value.startsWith(`TENANT#${TENANT}`), `${entity.entity}.${name}`).toBe(true);
          continue;
        }
        const [partition, sort] = Object.values(value as Record<string, string>);
        // A partition shared by all tenants (a sharded work index) names the tenant first in the sort key.
        expect(partition.startsWith(`TENANT#${TENANT}`) || sort.startsWith(`${TENANT}#`), `${entity.entity}.${name}: ${partition} / ${sort}`).toBe(true);
      }
    }
    expect(ENTITIES.filter((entity) => !entity.tenantScoped).map((entity) => entity.entity).sort()).toEqual(['api_key', 'email_claim', 'identity', 'inbound_address', 'integration_owner', 'invitation', 'page_cursor_secret', 'rate_limit_bucket', 'schedule']);
  });

  it('make up the keys object, each builder declared once (the local scheduler keeps its own)', () => {
    const declared = ENTITIES.filter((entity) => entity !== scheduleEntity).flatMap((entity) => [...Object.keys(entity.keys), ...Object.keys(entity.sharedPartitions)]);
    expect(new Set(declared).size).toBe(declared.length);
    expect(Object.keys(keys).sort()).toEqual([...declared].sort());
    expect(new Set(ENTITIES.map((entity) => entity.entity)).size).toBe(ENTITIES.length);
  });

  it('keep a task in the work index exactly while a dispatcher owes it work', () => {
    const rule = taskEntity.indexes.find((membership) => membership.index === 'gsi3')!.sparse!;
    expect(TASK_STATUSES.filter((status) => rule.holds({ status }))).toEqual(['queued', 'pending', 'running']);
  });
});
