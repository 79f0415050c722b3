import { SQSClient } from '@aws-sdk/client-sqs';
import { once } from '#shared/config/env';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** An SQS client as Gatehouse configures them; `AWS_ENDPOINT_URL_SQS` points it at the local emulator. */
export function newSqsClient(options: { maxSockets?: number } = {}): SQSClient {
  return traced(withoutSdkLogger(new SQSClient({
    maxAttempts: 3,
    // Queue URLs come from our own configuration and always match the endpoint; the SDK's
    // rewrite from the URL's host only adds a parse of hosts that emulators spell oddly.
    useQueueUrlAsEndpoint: false,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000, ...(options.maxSockets ? { httpAgent: { maxSockets: options.maxSockets } } : {}) } })));
}

/** The one SQS client of a process, for the handlers' sends. */
export const sqsClient = once(() => newSqsClient());
