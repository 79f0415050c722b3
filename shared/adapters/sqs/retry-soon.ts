import { ChangeMessageVisibilityCommand, GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { sqsClient } from '#shared/adapters/sqs/client';
import { logger } from '#shared/observability/logger';

/** First retry of a failed record, in seconds; it doubles with each receive, up to the cap. */
const FIRST_RETRY_SECONDS = 10;
const MAX_RETRY_SECONDS = 300;

/** Seconds until a record that failed on its `receiveCount`-th receive comes back. */
export function retryDelaySeconds(receiveCount: number): number {
  const attempt = Number.isFinite(receiveCount) && receiveCount > 0 ? Math.floor(receiveCount) : 1;
  return Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.min(attempt - 1, 10));
}

const queueUrls = new Map<string, Promise<string>>();

/** The queue's URL from the record's ARN (`arn:aws:sqs:<region>:<account>:<name>`), asked once per process. */
function queueUrlOf(arn: string): Promise<string> {
  let url = queueUrls.get(arn);
  if (!url) {
    const [, , , , account, name] = arn.split(':');
    url = sqsClient()
      .send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: account }))
      .then((result) => result.QueueUrl ?? Promise.reject(new Error(`No URL for queue ${name}.`)));
    url.catch(() => queueUrls.delete(arn));
    queueUrls.set(arn, url);
  }
  return url;
}

/**
 * Wraps a record handler so that a record that fails (the database did not answer, say) comes
 * back after a short, growing delay instead of after the queue's visibility timeout, which is
 * six times the consumer's timeout (up to 30 minutes): work stalled by an outage resumes soon
 * after it ends. The receive count still grows with each failure, so a record that keeps failing
 * reaches the dead-letter queue as before. If the visibility cannot be changed, the record simply
 * comes back after the visibility timeout.
 */
export function retrySoon<R extends SQSRecord>(handle: (record: R) => Promise<void>): (record: R) => Promise<void> {
  return async (record) => {
    try {
      await handle(record);
    } catch (error) {
      const delay = retryDelaySeconds(Number(record.attributes?.ApproximateReceiveCount));
      try {
        await sqsClient().send(new ChangeMessageVisibilityCommand({ QueueUrl: await queueUrlOf(record.eventSourceARN), ReceiptHandle: record.receiptHandle, VisibilityTimeout: delay }));
      } catch (visibilityError) {
        logger.warn('a failed record returns after the queue visibility timeout, not sooner', { message_id: record.messageId, error: String(visibilityError) });
      }
      throw error;
    }
  };
}
