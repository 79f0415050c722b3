import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '#shared/adapters/sqs/client';
import { getStringFromEnv } from '#shared/config/env';
import { SCAN_DETECTOR_QUEUE } from '#shared/config/topology';
import { messageBody } from '#shared/adapters/sqs/message-body';
import type { DetectorName } from '#shared/scans/model';

export interface DetectorMessage {
  tenant_id: string;
  scan_id: string;
  detector: DetectorName;
}

export async function dispatchDetectorRun(message: DetectorMessage): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(SCAN_DETECTOR_QUEUE.urlEnv), MessageBody: messageBody(message) }));
}
