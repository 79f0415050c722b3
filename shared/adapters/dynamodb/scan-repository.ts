import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { batchGetAll, batchWriteAll } from '#shared/adapters/dynamodb/batch';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { queryAll, queryPage } from '#shared/adapters/dynamodb/paged-query';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { ACTIVE_TASK_SHARDS, keys } from '#shared/adapters/dynamodb/keys';
import { itemsOfShardedIndex } from '#shared/adapters/dynamodb/sharded-index';
import { GSI1, GSI3 } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import type { Finding, Occurrence } from '#shared/scans/finding';
import type { DetectorName, Severity } from '#shared/scans/model';
import { SEVERITY_ORDER, type DetectorRun, type Project, type Scan, type ScanStatus } from '#shared/scans/scan';

type Item = Record<string, NativeAttributeValue>;

export interface HistoryEntry {
  scan_id: string;
  scanned_at: string;
  status: 'open' | 'fixed';
  count: number;
}

function occurrenceSortKey(occurrence: Pick<Occurrence, 'severity' | 'detector' | 'finding_id'>): string {
  return `${SEVERITY_ORDER[occurrence.severity]}#${occurrence.detector}#${occurrence.finding_id}`;
}

/** Projects, scans, findings and their history in the single table. */
export class DynamoScanRepository {
  private get client() {
    return documentClient();
  }

  async createProject(project: Project): Promise<void> {
    await this.client.send(new PutCommand({ TableName: tableName(), Item: { ...keys.project(project.tenant_id, project.project_id), ...keys.projectListing(project.tenant_id, project.project_id), entity: 'project', ...project }, ConditionExpression: 'attribute_not_exists(pk)' }));
  }

  async getProject(tenantId: string, projectId: string): Promise<Project | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.project(tenantId, projectId), ConsistentRead: true }));
    return Item ? stripKeys<Project>(Item) : undefined;
  }

  async updateProject(tenantId: string, projectId: string, fields: Partial<Project>): Promise<Project> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.project(tenantId, projectId),
          UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<Project>(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('project', projectId);
      throw error;
    }
  }

  async listProjects(tenantId: string, limit: number, cursor?: string): Promise<{ projects: Project[]; nextCursor: string | null }> {
    const partition = keys.projectsPartition(tenantId);
    const scope = `projects|${partition}`;
    const page = await this.client.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: decodeCursor(scope, cursor, { partitionAttribute: GSI1.partitionKey, partition }),
      }),
    );
    return { projects: (page.Items ?? []).map((item) => stripKeys<Project>(item)), nextCursor: encodeCursor(scope, page.LastEvaluatedKey) };
  }

  async createScan(scan: Scan): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.scan(scan.tenant_id, scan.scan_id), ...keys.scanListing(scan.tenant_id, scan.project_id, scan.scan_id), ...keys.activeScan(scan.tenant_id, scan.scan_id), entity: 'scan', ...scan },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getScan(tenantId: string, scanId: string): Promise<Scan | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.scan(tenantId, scanId), ConsistentRead: true }));
    return Item ? stripKeys<Scan>(Item) : undefined;
  }

  /** A project's scans, newest first, optionally of one status. */
  async listScans(tenantId: string, projectId: string, query: { limit: number; cursor?: string; status?: ScanStatus }): Promise<{ scans: Scan[]; nextCursor: string | null }> {
    const partition = keys.scansPartition(tenantId, projectId);
    const scope = `scans|${partition}|${query.status ?? ''}`;
    let startKey: Item | undefined = decodeCursor(scope, query.cursor, { partitionAttribute: GSI1.partitionKey, partition });
    const page = await queryPage<Scan>(
      {
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ...(query.status ? { FilterExpression: '#status = :status' } : {}),
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey, ...(query.status ? { '#status': 'status' } : {}) },
        ExpressionAttributeValues: { ':pk': partition, ...(query.status ? { ':status': query.status } : {}) },
        ScanIndexForward: false,
      },
      query.limit,
      startKey,
    );
    const scans = page.items;
    startKey = page.lastKey;
    return { scans, nextCursor: encodeCursor(scope, startKey) };
  }

  /** Marks a detector run as started (and the scan running); false when the scan ended or the run already ended. */
  async startRun(scan: Scan, detector: DetectorName, now: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.scan(scan.tenant_id, scan.scan_id),
          UpdateExpression: 'SET #status = :running, runs.#d.#rs = :running, runs.#d.started_at = :now, started_at = if_not_exists(started_at, :now)',
          ConditionExpression: '#status IN (:pending, :running) AND NOT (runs.#d.#rs IN (:completed, :failed))',
          ExpressionAttributeNames: { '#status': 'status', '#d': detector, '#rs': 'status' },
          ExpressionAttributeValues: { ':running': 'running', ':pending': 'pending', ':completed': 'completed', ':failed': 'failed', ':now': now },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Stores a detector's occurrences (idempotent puts keyed by finding). */
  async putOccurrences(tenantId: string, occurrences: Occurrence[]): Promise<void> {
    await batchWriteAll(occurrences.map((occurrence) => ({ PutRequest: { Item: { ...keys.occurrence(tenantId, occurrence.scan_id, occurrenceSortKey(occurrence)), entity: 'occurrence', ...occurrence } } })));
  }

  /** Ends a detector run once; returns the scan as it now is, or undefined if the scan ended or the run already did. */
  async finishRun(scan: Scan, detector: DetectorName, run: DetectorRun): Promise<Scan | undefined> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.scan(scan.tenant_id, scan.scan_id),
          UpdateExpression: 'SET runs.#d = :run',
          ConditionExpression: '#status = :running AND runs.#d.#rs = :running',
          ExpressionAttributeNames: { '#status': 'status', '#d': detector, '#rs': 'status' },
          ExpressionAttributeValues: { ':run': run, ':running': 'running' },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<Scan>(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /** running → completed/failed, once, with the scan's results; leaves the active-scan index. */
  async completeScan(scan: Scan, fields: Pick<Scan, 'status' | 'completed_at' | 'duration_seconds' | 'risk_score' | 'risk_level' | 'rule_counts'>): Promise<boolean> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.scan(scan.tenant_id, scan.scan_id),
          UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')} REMOVE ${GSI3.partitionKey}, ${GSI3.sortKey}`,
          ConditionExpression: '#cur = :running',
          ExpressionAttributeNames: { '#cur': 'status', ...Object.fromEntries(entries.map(([name]) => [`#${name}`, name])) },
          ExpressionAttributeValues: { ':running': 'running', ...Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async cancelScan(scan: Scan, now: string): Promise<Scan> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.scan(scan.tenant_id, scan.scan_id),
          UpdateExpression: `SET #status = :cancelled, completed_at = :now REMOVE ${GSI3.partitionKey}, ${GSI3.sortKey}`,
          ConditionExpression: '#status IN (:pending, :running)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':cancelled': 'cancelled', ':pending': 'pending', ':running': 'running', ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<Scan>(Attributes!);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.getScan(scan.tenant_id, scan.scan_id);
      throw new ConflictError('scan_not_cancellable', `The scan is ${current?.status ?? scan.status} and can no longer be cancelled.`);
    }
  }

  /** Every pending or running scan as the active-scan index holds it (eventually consistent snapshots). */
  async *activeScanSnapshots(): AsyncGenerator<Scan> {
    for await (const item of itemsOfShardedIndex(keys.activeScanPartition, ACTIVE_TASK_SHARDS)) yield stripKeys<Scan>(item);
  }

  /**
   * Records the sweeper's re-send of a detector run it judged from `seen` (an index snapshot).
   * Holds only if the run did not move since (same status and start, no re-send by another sweep)
   * and the scan has not ended; false otherwise, and then nothing is sent.
   */
  async markRedriven(scan: Scan, detector: DetectorName, seen: { status?: string; started_at?: string; redriven_at?: string } | undefined, now: string): Promise<boolean> {
    const names: Record<string, string> = { '#status': 'status', '#runs': 'runs', '#d': detector, '#rs': 'status', '#started': 'started_at', '#redriven': 'redriven_at' };
    const values: Item = { ':now': now, ':pending': 'pending', ':running': 'running' };
    const conditions = ['#status IN (:pending, :running)'];
    if (!seen) {
      conditions.push('attribute_not_exists(#runs.#d)');
    } else {
      values[':seenStatus'] = seen.status;
      conditions.push('#runs.#d.#rs = :seenStatus');
      for (const [field, name] of [['started_at', '#started'], ['redriven_at', '#redriven']] as const) {
        if (seen[field] === undefined) conditions.push(`attribute_not_exists(#runs.#d.${name})`);
        else {
          values[`:${field}`] = seen[field];
          conditions.push(`#runs.#d.${name} = :${field}`);
        }
      }
    }
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.scan(scan.tenant_id, scan.scan_id),
          // A run the scan never recorded gets a pending one, so the next sweep has something to compare.
          UpdateExpression: seen ? 'SET #runs.#d.#redriven = :now' : 'SET #runs.#d = :run',
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: seen ? names : { '#status': 'status', '#runs': 'runs', '#d': detector },
          ExpressionAttributeValues: seen ? values : { ':pending': 'pending', ':running': 'running', ':run': { status: 'pending', redriven_at: now } },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

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
    let startKey: Item | undefined = decodeCursor(scope, query.cursor, { partitionAttribute: 'pk', partition });
    const occurrences: Occurrence[] = [];
    for (let round = 0; round < 25 && occurrences.length < query.limit; round++) {
      const page = await this.client.send(new QueryCommand({ ...base, Limit: query.limit - occurrences.length, ExclusiveStartKey: startKey }));
      occurrences.push(...(page.Items ?? []).map((item) => stripKeys<Occurrence>(item)));
      startKey = page.LastEvaluatedKey;
      if (!startKey) break;
    }
    let total = 0;
    let countKey: Item | undefined;
    do {
      const page = await this.client.send(new QueryCommand({ ...base, Select: 'COUNT', ExclusiveStartKey: countKey }));
      total += page.Count ?? 0;
      countKey = page.LastEvaluatedKey;
    } while (countKey);
    return { occurrences, nextCursor: encodeCursor(scope, startKey), total };
  }

  async allOccurrences(tenantId: string, scanId: string): Promise<Occurrence[]> {
    const all: Occurrence[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await this.listOccurrences(tenantId, scanId, { limit: 200, cursor });
      all.push(...result.occurrences);
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    return all;
  }

  async getFinding(tenantId: string, findingId: string): Promise<Finding | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.finding(tenantId, findingId), ConsistentRead: true }));
    return Item ? stripKeys<Finding>(Item) : undefined;
  }

  async getFindings(tenantId: string, findingIds: string[]): Promise<Map<string, Finding>> {
    const items = await batchGetAll(findingIds.map((id) => keys.finding(tenantId, id)), { consistentRead: true });
    return new Map(items.map((item) => stripKeys<Finding>(item)).map((finding) => [finding.finding_id, finding]));
  }

  async putFinding(finding: Finding): Promise<void> {
    await this.client.send(new PutCommand({ TableName: tableName(), Item: { ...keys.finding(finding.tenant_id, finding.finding_id), ...keys.findingListing(finding.tenant_id, finding.project_id, finding.finding_id), entity: 'finding', ...finding } }));
  }

  async projectFindings(tenantId: string, projectId: string): Promise<Finding[]> {
    return queryAll<Finding>({
      TableName: tableName(),
      IndexName: GSI1.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
      ExpressionAttributeValues: { ':pk': keys.projectFindingsPartition(tenantId, projectId) },
    });
  }

  async updateFinding(tenantId: string, findingId: string, fields: Partial<Finding>, remove: (keyof Finding)[] = []): Promise<Finding> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    const sets = entries.map(([name]) => `#${name} = :${name}`);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.finding(tenantId, findingId),
          UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', remove.length ? `REMOVE ${remove.map((name) => `#${name}`).join(', ')}` : ''].join(' ').trim(),
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries([...entries.map(([name]) => [`#${name}`, name]), ...remove.map((name) => [`#${name}`, name])]),
          ...(entries.length ? { ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])) } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<Finding>(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('finding', findingId);
      throw error;
    }
  }

  async putHistory(tenantId: string, projectId: string, ruleId: string, entry: HistoryEntry): Promise<void> {
    await this.client.send(new PutCommand({ TableName: tableName(), Item: { ...keys.ruleHistory(tenantId, projectId, ruleId, entry.scan_id), entity: 'rule_history', rule_id: ruleId, ...entry } }));
  }

  async history(tenantId: string, projectId: string, ruleId: string): Promise<HistoryEntry[]> {
    const { Items } = await this.client.send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.ruleHistoryPartition(tenantId, projectId, ruleId) }, ScanIndexForward: false, ConsistentRead: true }),
    );
    return (Items ?? []).map((item) => ({ scan_id: item.scan_id, scanned_at: item.scanned_at, status: item.status, count: item.count }));
  }
}

export const scanRepository = new DynamoScanRepository();
