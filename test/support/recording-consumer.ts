import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

/** A queue consumer for poller tests: records what it receives, fails bodies that ask for it. */
export const received: string[] = ((globalThis as { __received?: string[] }).__received ??= []);

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = [];
  for (const record of event.Records) {
    received.push(record.body);
    if (record.body.includes('fail')) failures.push({ itemIdentifier: record.messageId });
  }
  return { batchItemFailures: failures };
};
