import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { encodeTime } from 'ulid';
import { eventDay } from '#shared/adapters/dynamodb/event-item';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { EVENT_SHARDS, keys } from '#shared/adapters/dynamodb/keys';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
import { InvalidRequestError } from '#shared/domain/errors';

type Item = Record<string, NativeAttributeValue>;

export interface EventFilters {
  taskId?: string;
  agent?: string;
  types?: string[];
}

export interface EventQuery extends EventFilters {
  /** ISO 8601, exclusive. */
  after?: string;
  /** ISO 8601, exclusive. */
  before?: string;
  limit: number;
  cursor?: string;
}

const EVENT_ID = /^evt_[0-9a-hjkmnp-tv-z]{26}$/;
const LOWEST = 'evt_';
const HIGHEST = 'evt_~';

/** An event without its data: enough to order deliveries. */
export type EventSummary = Pick<ServiceEvent, 'event_id' | 'type' | 'created_at'>;
const SUMMARY_NAMES = { '#s0': 'event_id', '#s1': 'type', '#s2': 'created_at' } satisfies Record<string, keyof EventSummary>;
const SUMMARY_PROJECTION = Object.keys(SUMMARY_NAMES).join(', ');

/** The highest event id created at or before `ms` (ids are `evt_` + ULID, time first). */
export function lastIdAt(ms: number): string {
  return `evt_${encodeTime(Math.max(0, ms), 10).toLowerCase()}zzzzzzzzzzzzzzzz`;
}

function dayOf(eventId: string): string {
  if (eventId === LOWEST) return '0000-00-00';
  if (eventId === HIGHEST) return '9999-99-99';
  return eventDay(eventId);
}

/**
 * The event log. A tenant's events are spread over EVENT_SHARDS partitions per day, so a busy
 * tenant writes to several keys at once; a listing walks the days that have events (day
 * markers), merges the shards of each day by event id and pages by the last event id returned.
 * The events of one task are also indexed by task (gsi1), which serves `task_id` filters.
 */
export class DynamoEventRepository {
  private get client() {
    return documentClient();
  }

  async list(tenantId: string, query: EventQuery): Promise<{ events: ServiceEvent[]; nextCursor: string | null }> {
    const scope = `events|${tenantId}|${query.taskId ?? ''}|${query.agent ?? ''}|${(query.types ?? []).join(',')}|${query.after ?? ''}|${query.before ?? ''}`;
    const cursor = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: 'tenant', partition: tenantId });
    if (cursor && !EVENT_ID.test(cursor.last ?? '')) throw new InvalidRequestError('The cursor is not valid for this listing.', [{ path: 'cursor', message: 'malformed' }], 'invalid_cursor');
    let lower = query.after ? lastIdAt(Date.parse(query.after)) : LOWEST;
    if (cursor && cursor.last > lower) lower = cursor.last;
    const upper = query.before ? lastIdAt(Date.parse(query.before) - 1) : HIGHEST;
    const { events, more } = await this.after(tenantId, query, lower, upper, query.limit);
    const last = events.at(-1)?.event_id;
    return { events, nextCursor: more && last ? await encodeCursor(tenantId, scope, { tenant: tenantId, last }) : null };
  }

  /**
   * Up to `limit` events with ids above `lower` (exclusive) and up to `upper` (inclusive),
   * oldest first, and whether more exist. The live stream polls with this too.
   */
  async after(tenantId: string, filters: EventFilters, lower: string, upper: string = HIGHEST, limit = 100): Promise<{ events: ServiceEvent[]; more: boolean }> {
    if (lower >= upper) return { events: [], more: false };
    if (filters.taskId) return this.afterForTask(tenantId, filters, lower, upper, limit);
    const found: ServiceEvent[] = [];
    for (const day of await this.daysBetween(tenantId, dayOf(lower), dayOf(upper))) {
      const perShard = await Promise.all(
        Array.from({ length: EVENT_SHARDS }, (_, shard) => this.queryRange(keys.eventShardPartition(tenantId, day, shard), undefined, filters, lower, upper, limit - found.length + 1)),
      );
      const merged = perShard.flat().sort((a, b) => a.event_id.localeCompare(b.event_id));
      found.push(...merged);
      if (found.length > limit) break;
    }
    return { events: found.slice(0, limit), more: found.length > limit };
  }

  /**
   * One page of a task's events below `upper` (exclusive), newest first, as summaries, and where
   * the next page starts (undefined at the task's first event). Read from the task's index
   * (eventually consistent on AWS, like every read of that index).
   */
  async beforeForTask(tenantId: string, taskId: string, upper: string, limit: number, startKey?: Item): Promise<{ events: EventSummary[]; nextKey?: Item }> {
    const page = await this.client.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk AND #sk < :upper',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey, ...SUMMARY_NAMES },
        ExpressionAttributeValues: { ':pk': keys.eventsOfTaskPartition(tenantId, taskId), ':upper': upper },
        ProjectionExpression: SUMMARY_PROJECTION,
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    return { events: (page.Items ?? []).map((item) => stripKeys<EventSummary>(item)), nextKey: page.LastEvaluatedKey };
  }

  /**
   * Id, type and time of up to `limit` of a task's events above `lower`, oldest first: what
   * delivery order needs, without the events' data (a task event carries the whole task), so each
   * delivery's look-ahead reads and parses a few short items, not the task's later events in full.
   */
  async summariesAfterForTask(tenantId: string, taskId: string, types: string[], lower: string, limit: number): Promise<EventSummary[]> {
    return this.queryRange(keys.eventsOfTaskPartition(tenantId, taskId), GSI1, { types }, lower, HIGHEST, limit, true);
  }

  private async afterForTask(tenantId: string, filters: EventFilters, lower: string, upper: string, limit: number) {
    const found = await this.queryRange(keys.eventsOfTaskPartition(tenantId, filters.taskId!), GSI1, filters, lower, upper, limit + 1);
    return { events: found.slice(0, limit), more: found.length > limit };
  }

  private async daysBetween(tenantId: string, from: string, to: string): Promise<string[]> {
    const days: string[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': keys.eventDaysPartition(tenantId), ':from': from, ':to': to },
          ExclusiveStartKey: startKey,
        }),
      );
      days.push(...(page.Items ?? []).map((item) => item.sk as string));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return days;
  }

  /** Reads one partition oldest first until `wanted` events match the filters or it runs out. */
  private async queryRange(partition: string, index: typeof GSI1 | undefined, filters: EventFilters, lower: string, upper: string, wanted: number): Promise<ServiceEvent[]>;
  private async queryRange(partition: string, index: typeof GSI1 | undefined, filters: EventFilters, lower: string, upper: string, wanted: number, summaries: true): Promise<EventSummary[]>;
  private async queryRange(partition: string, index: typeof GSI1 | undefined, filters: EventFilters, lower: string, upper: string, wanted: number, summaries = false): Promise<EventSummary[]> {
    const names: Record<string, string> = { '#pk': index ? index.partitionKey : 'pk', '#sk': index ? index.sortKey : 'sk' };
    if (summaries) Object.assign(names, SUMMARY_NAMES);
    const values: Item = { ':pk': partition, ':lower': lower, ':upper': upper };
    const conditions: string[] = [];
    if (filters.agent) {
      names['#agent'] = 'agent';
      values[':agent'] = filters.agent;
      conditions.push('#agent = :agent');
    }
    if (filters.types?.length) {
      names['#type'] = 'type';
      filters.types.forEach((type, position) => (values[`:type${position}`] = type));
      conditions.push(`#type IN (${filters.types.map((_, position) => `:type${position}`).join(', ')})`);
    }
    const found: EventSummary[] = [];
    let startKey: Item | undefined;
    for (let round = 0; round < 50 && found.length < wanted; round++) {
      const page = await this.client.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: index?.indexName,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
          ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
          ...(summaries ? { ProjectionExpression: SUMMARY_PROJECTION } : {}),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          Limit: Math.max(wanted - found.length + 1, 10),
          ExclusiveStartKey: startKey,
          ConsistentRead: index ? undefined : true,
        }),
      );
      // `lower` is exclusive; BETWEEN includes it.
      found.push(...(page.Items ?? []).filter((item) => item.event_id !== lower).map((item) => stripKeys<EventSummary>(item)));
      startKey = page.LastEvaluatedKey;
      if (!startKey) break;
    }
    return found.slice(0, wanted);
  }
}

export const eventRepository = new DynamoEventRepository();
