import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { parseMessageBody } from '#shared/adapters/sqs/message-body';
import { retrySoon } from '#shared/adapters/sqs/retry-soon';
import { InvalidRequestError } from '#shared/domain/errors';
import { restampJobSchema } from '#shared/domain/retention-job';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { continueRestamp } from '#shared/services/retention-restamp';

const processor = new BatchProcessor(EventType.SQS);

/** Pages per message: small enough to end well inside the function's timeout, then re-send. */
const PAGES_PER_MESSAGE = 20;

/** Runs a re-stamp job for a while; the service queues what is left (shared/services/retention-restamp.ts). */
async function restampRecord(record: SQSRecord): Promise<void> {
  const job = parseMessageBody(record, restampJobSchema, 'retention-restamper');
  if (!job) return;
  let continues;
  try {
    continues = await continueRestamp(job, { maxPages: PAGES_PER_MESSAGE });
  } catch (error) {
    // A cursor that is not this tenant's listing can never succeed: drop it, as malformed.
    if (error instanceof InvalidRequestError) {
      logger.error('malformed re-stamp cursor dropped', { tenant_id: job.tenant_id, message_id: record.messageId });
      return;
    }
    throw error;
  }
  logger.info(continues ? 're-stamp continues' : 're-stamp ended (done or outdated)', { tenant_id: job.tenant_id, version: job.version });
}

export const handler = observedHandler(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, retrySoon((record: SQSRecord) => observeRecord({ message_id: record.messageId }, () => restampRecord(record))), processor, { context }));
