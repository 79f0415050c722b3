import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { batchWriteAll } from '#shared/adapters/dynamodb/batch';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { keys } from '#shared/adapters/dynamodb/keys';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { Occurrence } from '#shared/scans/finding';
import type { DetectorName, Severity } from '#shared/scans/model';
import { SEVERITY_ORDER } from '#shared/scans/scan';

type Item = Record<string, NativeAttributeValue>;

/** Severity first, so a scan's partition reads most severe first. */
function occurrenceSortKey(occurrence: Pick<Occurrence, 'severity' | 'detector' | 'finding_id'>): string {
  return `${SEVERITY_ORDER[occurrence.severity]}#${occurrence.detector}#${occurrence.finding_id}`;
}

/** Occurrences: the findings one scan saw, in the scan's own partition, sorted by severity. */
export const occurrenceRepository = {
  /** Stores a detector's occurrences (idempotent puts keyed by finding). */
  async putOccurrences(tenantId: string, occurrences: Occurrence[]): Promise<void> {
    await batchWriteAll(occurrences.map((occurrence) => ({ PutRequest: { Item: { ...keys.occurrence(tenantId, occurrence.scan_id, occurrenceSortKey(occurrence)), entity: 'occurrence', ...occurrence } } })));
  },

  /** A scan's occurrences, by severity, filtered by detector and severities, with the filtered total. */
  async listOccurrences(tenantId: string, scanId: string, query: { detector?: DetectorName; severities?: Severity[]; limit: number; cursor?: string }): Promise<{ occurrences: Occurrence[]; nextCursor: string | null; total: number }> {
    const partition = keys.occurrencesPartition(tenantId, scanId);
    const scope = `occurrences|${partition}|${query.detector ?? ''}|${(query.severities ?? []).join(',')}`;
    const names: Record<string, string> = {};
    const values: Item = { ':pk': partition };
    const filters: string[] = [];
    if (query.detector) {
      names['#detector'] = 'detector';
      values[':detector'] = query.detector;
      filters.push('#detector = :detector');
    }
    if (query.severities?.length) {
      names['#severity'] = 'severity';
      query.severities.forEach((severity, index) => (values[`:s${index}`] = severity));
      filters.push(`#severity IN (${query.severities.map((_, index) => `:s${index}`).join(', ')})`);
    }
    const base = {
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ...(filters.length ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ConsistentRead: true,
    };
    let startKey: Item | undefined = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: 'pk', partition });
    const occurrences: Occurrence[] = [];
    for (let round = 0; round < 25 && occurrences.length < query.limit; round++) {
      const page = await documentClient().send(new QueryCommand({ ...base, Limit: query.limit - occurrences.length, ExclusiveStartKey: startKey }));
      occurrences.push(...(page.Items ?? []).map((item) => stripKeys<Occurrence>(item)));
      startKey = page.LastEvaluatedKey;
      if (!startKey) break;
    }
    let total = 0;
    let countKey: Item | undefined;
    do {
      const page = await documentClient().send(new QueryCommand({ ...base, Select: 'COUNT', ExclusiveStartKey: countKey }));
      total += page.Count ?? 0;
      countKey = page.LastEvaluatedKey;
    } while (countKey);
    return { occurrences, nextCursor: await encodeCursor(tenantId, scope, startKey), total };
  },

  async allOccurrences(tenantId: string, scanId: string): Promise<Occurrence[]> {
    const all: Occurrence[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await occurrenceRepository.listOccurrences(tenantId, scanId, { limit: 200, cursor });
      all.push(...result.occurrences);
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    return all;
  },
};
