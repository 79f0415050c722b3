import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from '#shared/zod';
import { retrySoon } from '#shared/adapters/sqs/retry-soon';
import { parseMessageBody } from '#shared/adapters/sqs/message-body';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { DETECTORS } from '#shared/scans/model';
import { runDetector } from '#shared/services/scan-runner';

const processor = new BatchProcessor(EventType.SQS);
const detectorMessage = z.strictObject({ tenant_id: z.string().check(z.minLength(1)), scan_id: z.string().check(z.minLength(1)), detector: z.enum(DETECTORS) });

/** One detector of one scan per message; a dead worker's message comes back and the run resumes. */
async function runRecord(record: SQSRecord): Promise<void> {
  const message = parseMessageBody(record, detectorMessage, 'scan-detector-worker');
  if (!message) return;
  await observeRecord({ message_id: record.messageId, ...message }, () => runDetector(message.tenant_id, message.scan_id, message.detector));
}

export const handler = observedHandler(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => processPartialResponse(event, retrySoon(runRecord), processor, { context }));
