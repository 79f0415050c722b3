import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '#shared/adapters/sqs/client';
import { getStringFromEnv } from '#shared/config/env';
import { RETENTION_QUEUE } from '#shared/config/topology';
import { restampJobSchema, type RestampJob } from '#shared/domain/retention-job';

/** Queues (or continues) a tenant's re-stamp job. */
export async function dispatchRestamp(job: RestampJob): Promise<void> {
  const message = restampJobSchema.parse(job);
  await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(RETENTION_QUEUE.urlEnv), MessageBody: JSON.stringify(message) }));
}
