import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { allQueues, visibilityTimeoutSeconds } from '#shared/config/topology';
import { ensureTable } from '#lib/local/table-setup';

export interface EngineEndpoints {
  dynamodb: string;
  sqs: string;
}

export interface Provisioned {
  tableName: string;
  /** Queue URL by logical name (dead-letter queues as `<name>-dlq`). */
  queueUrls: Record<string, string>;
  /** The environment the handlers read, as the CDK stack sets it on AWS. */
  environment: Record<string, string>;
}

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * Creates the table and every queue of the topology under `name` (idempotent): each queue with
 * its dead-letter queue, redrive policy and visibility timeout as the AWS stack has them.
 */
export async function provision(name: string, endpoints: EngineEndpoints, options: { outboxDir?: string; secretKey?: string } = {}): Promise<Provisioned> {
  await ensureTable(endpoints.dynamodb, name);
  const sqs = new SQSClient({ endpoint: endpoints.sqs, region: 'us-east-1', credentials: localCredentials, useQueueUrlAsEndpoint: false });
  const queueUrls: Record<string, string> = {};
  for (const queue of allQueues) {
    const deadLetter = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-${queue.name}-dlq`, Attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) } }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: deadLetter.QueueUrl, AttributeNames: ['QueueArn'] }));
    const created = await sqs.send(
      new CreateQueueCommand({
        QueueName: `${name}-${queue.name}`,
        Attributes: {
          VisibilityTimeout: String(visibilityTimeoutSeconds(queue.name)),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: String(queue.maxReceiveCount) }),
        },
      }),
    );
    queueUrls[queue.name] = created.QueueUrl!;
    queueUrls[`${queue.name}-dlq`] = deadLetter.QueueUrl!;
  }
  sqs.destroy();
  const s3 = new S3Client({ endpoint: endpoints.sqs, region: 'us-east-1', credentials: localCredentials, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: `${name}-exports` })).catch((error: { name?: string }) => {
    if (error.name !== 'BucketAlreadyOwnedByYou' && error.name !== 'BucketAlreadyExists') throw error;
  });
  s3.destroy();
  return {
    tableName: name,
    queueUrls,
    environment: {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
      AWS_ENDPOINT_URL_SQS: endpoints.sqs,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      TABLE_NAME: name,
      // Locally, schedules live in the table (run by the runtime's schedule runner) and approved
      // mail goes to an outbox folder as .eml files instead of SES.
      SCHEDULER_BACKEND: 'table',
      MAILER_BACKEND: 'outbox',
      MAIL_FROM: 'Gatehouse Agents <agents@gatehouse.local>',
      GATEHOUSE_OUTBOX_DIR: options.outboxDir ?? join(tmpdir(), `gatehouse-outbox-${name}`),
      // Webhook secrets: AES-GCM with a local key instead of KMS; receivers on loopback allowed.
      SECRET_CIPHER_BACKEND: 'local',
      GATEHOUSE_SECRET_KEY: options.secretKey ?? randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      SCAN_ALLOW_LOOPBACK: 'true',
      // fauxqs also emulates S3 on its endpoint: large exports go to a bucket there.
      AWS_ENDPOINT_URL_S3: endpoints.sqs,
      S3_FORCE_PATH_STYLE: 'true',
      EXPORT_BUCKET: `${name}-exports`,
      ...Object.fromEntries(allQueues.map((queue) => [queue.urlEnv, queueUrls[queue.name]])),
      ...Object.fromEntries(allQueues.filter((queue) => queue.deadLetterUrlEnv).map((queue) => [queue.deadLetterUrlEnv!, queueUrls[`${queue.name}-dlq`]])),
    },
  };
}
