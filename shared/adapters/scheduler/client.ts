import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { once } from '#shared/config/env';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** The one EventBridge Scheduler client of a process, created on first use. */
export const schedulerClient = once(() => traced(withoutSdkLogger(new SchedulerClient({
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 },
}))));
