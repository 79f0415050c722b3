import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { GSI1, TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import type { ArtifactApprovalStatus } from '#shared/domain/artifact';
import { systemClock, type Clock } from '#shared/domain/clock';
import { artifactExpiry, expiryEpoch, isPastExpiry, type RetentionStamp } from '#shared/domain/retention';
import type { ArtifactSummary } from '#shared/domain/task';

type Item = Record<string, NativeAttributeValue>;

export type RestampOutcome = 'updated' | 'unchanged' | 'gone' | 'newer';

/** A stamp lost this many races with approval resolutions before giving up (each re-reads). */
const ATTEMPTS = 4;

/**
 * Re-stamping existing artifacts when a tenant's retention changes, without a table Scan: a
 * tenant's artifacts are exactly those listed in its tasks' `artifacts` maps (an artifact is
 * written in the transaction that adds it there, and deleted with the entry), and its tasks are
 * one gsi1 partition (`TENANT#<t>#TASKS`). So the walk is a paged Query of that one partition.
 */
export class DynamoArtifactRetentionRepository {
  constructor(private readonly clock: Clock = systemClock) {}

  private get client() {
    return documentClient();
  }

  /** One page of the tenant's tasks, oldest first, as the artifact ids they hold. */
  async artifactPage(tenantId: string, startKey: Item | undefined, limit: number): Promise<{ artifactIds: string[]; lastKey: Item | undefined }> {
    const page = await this.client.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#artifacts': 'artifacts' },
        ExpressionAttributeValues: { ':pk': keys.tasksPartition(tenantId) },
        ProjectionExpression: '#artifacts',
        Limit: limit,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    const artifactIds = (page.Items ?? []).flatMap((item) => Object.values((item.artifacts ?? {}) as Record<string, ArtifactSummary>).map((summary) => summary.artifact_id));
    return { artifactIds: artifactIds.sort(), lastKey: page.LastEvaluatedKey };
  }

  /**
   * Gives one artifact the expiry of `stamp`. Safe to repeat, and safe against:
   * - a newer stamp already there (a later settings version wins: `newer`, nothing written);
   * - an artifact already past its expiry (it is gone for readers and stays gone: `gone`);
   * - a deleted artifact (never re-created: the update requires the item);
   * - an approval resolved meanwhile (the write requires the status it computed from; re-read).
   */
  async restamp(tenantId: string, artifactId: string, stamp: RetentionStamp): Promise<RestampOutcome> {
    const key = keys.artifact(tenantId, artifactId);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const { Item } = await this.client.send(
        new GetCommand({
          TableName: tableName(),
          Key: key,
          ConsistentRead: true,
          ProjectionExpression: 'created_at, approval_status, retention_version, expires_at, #ttl',
          ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        }),
      );
      if (!Item || isPastExpiry(Item[TTL_ATTRIBUTE], this.clock.now())) return 'gone';
      if (typeof Item.retention_version === 'number' && Item.retention_version > stamp.version) return 'newer';
      const status = Item.approval_status as ArtifactApprovalStatus | undefined;
      const expiresAt = artifactExpiry({ created_at: Item.created_at, approval_status: status }, stamp.retention_days);
      if (Item.retention_version === stamp.version && (Item.expires_at ?? null) === expiresAt) return 'unchanged';
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: expiresAt
              ? 'SET expires_at = :expiresAt, retention_version = :version, #ttl = :epoch'
              : 'SET expires_at = :none, retention_version = :version REMOVE #ttl',
            ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(retention_version) OR retention_version <= :version) AND ${
              status ? 'approval_status = :status' : 'attribute_not_exists(approval_status)'
            }`,
            ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: {
              ':version': stamp.version,
              ...(expiresAt ? { ':expiresAt': expiresAt, ':epoch': expiryEpoch(expiresAt) } : { ':none': null }),
              ...(status ? { ':status': status } : {}),
            },
          }),
        );
        return 'updated';
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    // Still racing after several re-reads: whoever keeps changing it stamps it (see docs/retention.md).
    return 'unchanged';
  }
}

export const artifactRetentionRepository = new DynamoArtifactRetentionRepository();
