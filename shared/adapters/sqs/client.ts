import { SQSClient } from '@aws-sdk/client-sqs';
import { once } from '#shared/config/env';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** The one SQS client of a process; `AWS_ENDPOINT_URL_SQS` points it at the local emulator. */
export const sqsClient = once(() => traced(withoutSdkLogger(new SQSClient({
    maxAttempts: 3,
    // Queue URLs come from our own configuration and always match the endpoint; the SDK's
    // rewrite from the URL's host only adds a parse of hosts that emulators spell oddly.
    useQueueUrlAsEndpoint: false,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 } }))));
