import { SESv2Client } from '@aws-sdk/client-sesv2';
import { once } from '#shared/config/env';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** The one SES v2 client of a process, created on first use; region and credentials from the environment. */
export const sesClient = once(() => traced(withoutSdkLogger(new SESv2Client({ maxAttempts: 3, requestHandler: { connectionTimeout: 1_000, requestTimeout: 10_000 } }))));
