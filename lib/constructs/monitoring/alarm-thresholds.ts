import { visibilityTimeoutSeconds } from '#shared/config/topology';

/** The thresholds of the alarms, in one place for the runbook (docs/operating/alarms.md) and the tests. */
export const ALARM_THRESHOLDS = {
  /** Percentage of API requests answered 5xx over 5 minutes... */
  api5xxPercent: 5,
  /** ...once at least this many requests came in those 5 minutes (a single 5xx among 3 requests is not a rate). */
  api5xxMinRequests: 20,
  /** Failed invocations (crash, timeout, out of memory) in 5 minutes; handled errors are responses, not these. */
  lambdaErrors: 1,
  /** Throttled invocations in 5 minutes. */
  lambdaThrottles: 1,
  /** Age of the stream's newest record when the fan-out read it, for two 5-minute periods in a row. */
  iteratorAgeMs: 5 * 60 * 1000,
  /** Percentage of webhook delivery attempts that failed, over 15 minutes (three 5-minute periods)... */
  webhookFailurePercent: 20,
  /** ...of periods with at least this many attempts. */
  webhookMinAttempts: 10,
} as const;

/**
 * The oldest message of a queue may wait two visibility timeouts (each six times its consumer's
 * timeout, topology.ts) before the alarm fires: by then it has failed twice, or the consumers do
 * not keep up. A healthy queue's oldest message is seconds old.
 */
export function oldestMessageAgeThresholdSeconds(queueName: string): number {
  return 2 * visibilityTimeoutSeconds(queueName);
}
