/**
 * How many concurrent Lambda invocations each SQS consumer's event source mapping may take
 * (`maxConcurrency`, minimum 2). The caps keep one busy tenant or a flood of one kind of work
 * from taking the account's whole Lambda concurrency quota; the sum, plus headroom for the API's
 * own functions, is the minimum quota docs/deploying.md and `npm run preflight` ask for.
 *
 * The three task queues share one worker function: SQS has no priority, so splitting the
 * worker's capacity into shares gives high-priority tasks four times the workers of low ones.
 */
export const QUEUE_MAX_CONCURRENCY: Readonly<Record<string, number>> = {
  'tasks-high': 20,
  'tasks-normal': 10,
  'tasks-low': 5,
  'tool-calls': 10,
  'webhook-deliveries': 10,
  'scan-detectors': 5,
  'retention-restamps': 2,
};

/** Concurrency left for the API, the authorizer, stream consumers and schedules when every queue consumer is busy. */
export const API_HEADROOM = 38;

/** The sum of the queue caps: what the queue consumers can take at most at once. */
export const QUEUE_CONCURRENCY_TOTAL = Object.values(QUEUE_MAX_CONCURRENCY).reduce((sum, cap) => sum + cap, 0);

/**
 * The smallest account Lambda concurrency quota Gatehouse is deployed into (100 with the caps
 * above). New accounts often start at 10, where Lambda also forbids reserving any of it.
 */
export const MINIMUM_ACCOUNT_CONCURRENCY = QUEUE_CONCURRENCY_TOTAL + API_HEADROOM;

export function queueMaxConcurrency(queueName: string): number {
  const cap = QUEUE_MAX_CONCURRENCY[queueName];
  if (cap === undefined) throw new Error(`Queue ${queueName} has no maximum concurrency in shared/config/lambda-concurrency.ts.`);
  return cap;
}
