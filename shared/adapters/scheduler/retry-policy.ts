/**
 * How often a failing target is retried, shared by the EventBridge schedules and the local
 * runner so both give up alike: one invocation plus this many retries, then the event is dropped.
 */
export const SCHEDULE_RETRY_POLICY = {
  maximumRetryAttempts: 10,
  maximumEventAgeSeconds: 24 * 60 * 60,
} as const;
