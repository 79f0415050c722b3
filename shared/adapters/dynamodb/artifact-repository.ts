import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '#shared/adapters/dynamodb/batch';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { artifactDataOf, storedArtifactData } from '#shared/adapters/dynamodb/artifact-data';
import { keys } from '#shared/adapters/dynamodb/keys';
import { isConditionFailure, stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { Artifact } from '#shared/domain/artifact';
import { systemClock, type Clock } from '#shared/domain/clock';
import { NotFoundError } from '#shared/domain/errors';
import { expiryEpoch, isPastExpiry } from '#shared/domain/retention';
import { TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';

/**
 * The table item of a new artifact. `expires_at_epoch` is the table's TTL attribute: DynamoDB
 * deletes the item some time after it (up to days late; DynamoDB Local never), so every read
 * below also treats an item past it as gone, which makes expiry exact.
 */
export function artifactItem(artifact: Artifact): Record<string, unknown> {
  const { data, ...fields } = artifact;
  return {
    ...keys.artifact(artifact.tenant_id, artifact.artifact_id),
    entity: 'artifact',
    ...fields,
    ...storedArtifactData(data),
    ...(artifact.expires_at ? { [TTL_ATTRIBUTE]: expiryEpoch(artifact.expires_at) } : {}),
  };
}

/** The artifact in an item, or undefined when retention already removed it (TTL may lag). */
function liveArtifact(item: Record<string, unknown> | undefined, now: Date): Artifact | undefined {
  if (!item || isPastExpiry(item[TTL_ATTRIBUTE], now)) return undefined;
  const { data_gz, ...fields } = stripKeys<Artifact & { data_gz?: unknown }>(item);
  void data_gz;
  return { ...fields, data: artifactDataOf(item) };
}

/** Artifacts: one item each, keyed by tenant and id; the producing task lists their ids. */
export class DynamoArtifactRepository {
  constructor(private readonly clock: Clock = systemClock) {}

  private get client() {
    return documentClient();
  }

  async get(tenantId: string, artifactId: string): Promise<Artifact | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.artifact(tenantId, artifactId), ConsistentRead: true }));
    return liveArtifact(Item, this.clock.now());
  }

  /** Reads many artifacts by id, in the order given; ids that no longer exist (or expired) are skipped. */
  async getMany(tenantId: string, artifactIds: string[]): Promise<Artifact[]> {
    const now = this.clock.now();
    const items = await batchGetAll(artifactIds.map((id) => keys.artifact(tenantId, id)), { consistentRead: true });
    const found = new Map(items.flatMap((item) => liveArtifact(item, now) ?? []).map((artifact) => [artifact.artifact_id, artifact]));
    return artifactIds.flatMap((id) => found.get(id) ?? []);
  }

  /** Deletes the artifact and removes it from its task's list (giving its bytes back to the task's budget), atomically. */
  async delete(tenantId: string, artifactId: string): Promise<void> {
    const artifact = await this.get(tenantId, artifactId);
    if (!artifact) throw new NotFoundError('artifact', artifactId);
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName(), Key: keys.artifact(tenantId, artifactId), ConditionExpression: 'attribute_exists(pk)' } },
            {
              Update: {
                TableName: tableName(),
                Key: keys.task(tenantId, artifact.task_id),
                UpdateExpression: artifact.data_bytes ? 'REMOVE artifacts.#id ADD artifact_bytes :minusBytes' : 'REMOVE artifacts.#id',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeNames: { '#id': artifactId },
                ...(artifact.data_bytes ? { ExpressionAttributeValues: { ':minusBytes': -artifact.data_bytes } } : {}),
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('artifact', artifactId);
      throw error;
    }
  }
}

export const artifactRepository = new DynamoArtifactRepository();
