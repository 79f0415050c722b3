/**
 * Queues and their consumers, declared once for the CDK stack and the local runtime.
 * Visibility timeouts are at least six times the consumer's timeout (AWS guidance for Lambda
 * event sources), so a slow batch is not redelivered while it still runs.
 */
import type { TaskPriority } from '#shared/domain/task';

export interface QueueDefinition {
  /** Logical name; the deployed queue name is prefixed with the stack or runtime name. */
  name: string;
  /** Deliveries before a message moves to the queue's dead-letter queue. */
  maxReceiveCount: number;
  /** Environment variable through which producers find the queue's URL. */
  urlEnv: string;
}

export interface ConsumerDefinition {
  name: string;
  handler: string;
  queues: string[];
  batchSize: number;
  timeoutSeconds: number;
  memoryMb: number;
}

export const TASK_QUEUES: Record<TaskPriority, QueueDefinition> = {
  high: { name: 'tasks-high', maxReceiveCount: 5, urlEnv: 'TASK_QUEUE_URL_HIGH' },
  normal: { name: 'tasks-normal', maxReceiveCount: 5, urlEnv: 'TASK_QUEUE_URL_NORMAL' },
  low: { name: 'tasks-low', maxReceiveCount: 5, urlEnv: 'TASK_QUEUE_URL_LOW' },
};

export const taskWorker: ConsumerDefinition = {
  name: 'task-worker',
  handler: 'functions/workers/run-task.ts',
  // Listed in dispatch order: the local runtime drains them strictly in this order.
  queues: [TASK_QUEUES.high.name, TASK_QUEUES.normal.name, TASK_QUEUES.low.name],
  batchSize: 5,
  timeoutSeconds: 120,
  memoryMb: 1024,
};

export const consumers: readonly ConsumerDefinition[] = [taskWorker];

export const VISIBILITY_TIMEOUT_FACTOR = 6;

export function visibilityTimeoutSeconds(queueName: string): number {
  const timeouts = consumers.filter((consumer) => consumer.queues.includes(queueName)).map((consumer) => consumer.timeoutSeconds);
  return Math.max(30, ...timeouts) * VISIBILITY_TIMEOUT_FACTOR;
}

export const allQueues: readonly QueueDefinition[] = Object.values(TASK_QUEUES);
