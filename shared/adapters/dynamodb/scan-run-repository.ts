import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { ACTIVE_TASK_SHARDS, keys } from '#shared/adapters/dynamodb/keys';
import { queryPage } from '#shared/adapters/dynamodb/paged-query';
import { itemsOfShardedIndex } from '#shared/adapters/dynamodb/sharded-index';
import { GSI1, GSI3 } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { transactWrite, type TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { usageUpdate } from '#shared/adapters/dynamodb/usage-repository';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import type { ServiceEvent } from '#shared/domain/event';
import { ConflictError } from '#shared/domain/errors';
import type { DetectorName } from '#shared/scans/model';
import type { DetectorRun, Scan, ScanStatus } from '#shared/scans/scan';

type Item = Record<string, NativeAttributeValue>;

/** Scans with their detector runs: one item per scan, in the active-scan index while pending or running. */
export const scanRunRepository = {
  /** Creates the scan, counts it in its tenant's usage and records `scan.created`, in one transaction. */
  async createScan(scan: Scan, event: ServiceEvent): Promise<void> {
    await transactWrite([
      await eventPut(event),
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.scan(scan.tenant_id, scan.scan_id), ...keys.scanListing(scan.tenant_id, scan.project_id, scan.scan_id), ...keys.activeScan(scan.tenant_id, scan.scan_id), entity: 'scan', ...scan },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      usageUpdate({ tenantId: scan.tenant_id, at: scan.created_at, shardBy: scan.scan_id, counts: { scans: 1 } }),
    ]);
  },

  async getScan(tenantId: string, scanId: string): Promise<Scan | undefined> {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.scan(tenantId, scanId), ConsistentRead: true }));
    return Item ? stripKeys<Scan>(Item) : undefined;
  },

  /** A project's scans, newest first, optionally of one status. */
  async listScans(tenantId: string, projectId: string, query: { limit: number; cursor?: string; status?: ScanStatus }): Promise<{ scans: Scan[]; nextCursor: string | null }> {
    const partition = keys.scansPartition(tenantId, projectId);
    const scope = `scans|${partition}|${query.status ?? ''}`;
    let startKey: Item | undefined = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: GSI1.partitionKey, partition });
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
    return { scans, nextCursor: await encodeCursor(tenantId, scope, startKey) };
  },

  /**
   * Marks a detector run as started (and the scan running); false when the scan ended or the run
   * already ended. The first run to start moves the scan from pending, with `scan.started` in the
   * same transaction; a later one finds it running already.
   */
  async startRun(scan: Scan, detector: DetectorName, now: string, started: ServiceEvent): Promise<boolean> {
    const start = (from: 'pending' | 'running'): TransactItem => ({
      Update: {
        TableName: tableName(),
        Key: keys.scan(scan.tenant_id, scan.scan_id),
        UpdateExpression: 'SET #status = :running, runs.#d.#rs = :running, runs.#d.started_at = :now, started_at = if_not_exists(started_at, :now)',
        ConditionExpression: '#status = :from AND NOT (runs.#d.#rs IN (:completed, :failed))',
        ExpressionAttributeNames: { '#status': 'status', '#d': detector, '#rs': 'status' },
        ExpressionAttributeValues: { ':running': 'running', ':from': from, ':completed': 'completed', ':failed': 'failed', ':now': now },
      },
    });
    for (const writes of [[start('pending'), await eventPut(started)], [start('running')]]) {
      try {
        await transactWrite(writes);
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    return false;
  },

  /**
   * Ends a detector run once, counting the pages it crawled in the same transaction; returns the
   * scan as it now is (read right after), or undefined if the scan ended or the run already did.
   */
  async finishRun(scan: Scan, detector: DetectorName, run: DetectorRun, pagesScanned = 0): Promise<Scan | undefined> {
    const finish: TransactItem = {
      Update: {
        TableName: tableName(),
        Key: keys.scan(scan.tenant_id, scan.scan_id),
        UpdateExpression: 'SET runs.#d = :run',
        ConditionExpression: '#status = :running AND runs.#d.#rs = :running',
        ExpressionAttributeNames: { '#status': 'status', '#d': detector, '#rs': 'status' },
        ExpressionAttributeValues: { ':run': run, ':running': 'running' },
      },
    };
    const at = run.completed_at ?? new Date().toISOString();
    try {
      await transactWrite(pagesScanned > 0 ? [finish, usageUpdate({ tenantId: scan.tenant_id, at, shardBy: `${scan.scan_id}#${detector}`, counts: { pages_scanned: pagesScanned } })] : [finish]);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    return scanRunRepository.getScan(scan.tenant_id, scan.scan_id);
  },

  /** running → completed/failed, once, with the scan's results and its event; leaves the active-scan index. */
  async completeScan(scan: Scan, fields: Pick<Scan, 'status' | 'completed_at' | 'duration_seconds' | 'risk_score' | 'risk_level' | 'rule_counts'>, event: ServiceEvent): Promise<boolean> {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.scan(scan.tenant_id, scan.scan_id),
            UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')} REMOVE ${GSI3.partitionKey}, ${GSI3.sortKey}`,
            ConditionExpression: '#cur = :running',
            ExpressionAttributeNames: { '#cur': 'status', ...Object.fromEntries(entries.map(([name]) => [`#${name}`, name])) },
            ExpressionAttributeValues: { ':running': 'running', ...Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])) },
          },
        },
        await eventPut(event),
      ]);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /** pending or running → cancelled, with `scan.cancelled`; 409 once the scan ended. */
  async cancelScan(scan: Scan, event: ServiceEvent): Promise<Scan> {
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.scan(scan.tenant_id, scan.scan_id),
            UpdateExpression: `SET #status = :cancelled, completed_at = :now REMOVE ${GSI3.partitionKey}, ${GSI3.sortKey}`,
            ConditionExpression: '#status IN (:pending, :running)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':cancelled': 'cancelled', ':pending': 'pending', ':running': 'running', ':now': event.created_at },
          },
        },
        await eventPut(event),
      ]);
      return (await scanRunRepository.getScan(scan.tenant_id, scan.scan_id)) ?? { ...scan, status: 'cancelled', completed_at: event.created_at };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await scanRunRepository.getScan(scan.tenant_id, scan.scan_id);
      throw new ConflictError('scan_not_cancellable', `The scan is ${current?.status ?? scan.status} and can no longer be cancelled.`);
    }
  },

  /** Every pending or running scan as the active-scan index holds it (eventually consistent snapshots). */
  async *activeScanSnapshots(): AsyncGenerator<Scan> {
    for await (const item of itemsOfShardedIndex(keys.activeScanPartition, ACTIVE_TASK_SHARDS)) yield stripKeys<Scan>(item);
  },

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
      await documentClient().send(
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
  },
};
