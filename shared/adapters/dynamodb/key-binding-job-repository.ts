import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { KEY_BINDING_JOBS_PARTITION } from '#shared/adapters/dynamodb/entities/key-binding-job';
import { keys } from '#shared/adapters/dynamodb/keys';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { KeyBindingJob } from '#shared/domain/key-binding';

/** Jobs read per query page. */
const PAGE_SIZE = 25;

/** Pending key-binding jobs: put in the member change's transaction, deleted once applied. */
export class DynamoKeyBindingJobRepository {
  private get client() {
    return documentClient();
  }

  /** The transaction item that records `job` (beside the member change it follows). */
  jobPut(job: KeyBindingJob) {
    return { Put: { TableName: tableName(), Item: { ...keys.keyBindingJob(job.tenant_id, job.job_id), entity: 'key_binding_job', ...job }, ConditionExpression: 'attribute_not_exists(pk)' } };
  }

  /** Every pending job, page by page (a job deleted meanwhile may still be yielded: applying it again is harmless). */
  async *pending(): AsyncGenerator<KeyBindingJob> {
    let startKey: Record<string, NativeAttributeValue> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': KEY_BINDING_JOBS_PARTITION }, Limit: PAGE_SIZE, ExclusiveStartKey: startKey, ConsistentRead: true }),
      );
      for (const item of page.Items ?? []) yield stripKeys<KeyBindingJob>(item);
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }

  /** Deletes a job that is done (already gone: another run finished it). */
  async complete(job: Pick<KeyBindingJob, 'tenant_id' | 'job_id'>): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: tableName(), Key: keys.keyBindingJob(job.tenant_id, job.job_id) }));
  }
}

export const keyBindingJobRepository = new DynamoKeyBindingJobRepository();
