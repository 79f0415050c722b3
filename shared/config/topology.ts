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
  /** Set when producers also write to the dead-letter queue themselves. */
  deadLetterUrlEnv?: string;
}

/** What a consumer's or schedule target's function may touch (least privilege in CDK). */
export interface FunctionAccess {
  table: 'read' | 'read_write';
  dispatchTasks?: boolean;
  dispatchToolCalls?: boolean;
  /** Creates and deletes one-time schedules. */
  schedules?: boolean;
  /** Sends email (SES); only the tool proxy. */
  sendMail?: boolean;
  /** Sends webhook delivery attempts to their queue. */
  dispatchDeliveries?: boolean;
  /** Encrypts or decrypts webhook secrets (KMS on AWS). */
  decryptSecrets?: boolean;
  encryptSecrets?: boolean;
  /** Opens integration credentials (kms:Decrypt on the integrations key): the tool proxy only. */
  decryptCredentials?: boolean;
  /** Invokes the tool proxy synchronously (read tool calls of agents). */
  invokeToolProxy?: boolean;
  dispatchScans?: boolean;
  /** Sends retention re-stamp jobs (a job re-sends itself with its cursor). */
  dispatchRetention?: boolean;
  /** Holds per-tenant task slots and defers tasks over a tenant's cap (the task worker). */
  taskSlots?: boolean;
  /** Starts tasks from event triggers, spending each chain's fan-out budget (the stream's reactions consumer). */
  eventTriggers?: boolean;
}

export interface ConsumerDefinition {
  name: string;
  access: FunctionAccess;
  handler: string;
  queues: string[];
  batchSize: number;
  timeoutSeconds: number;
  memoryMb: number;
  /** Renders pages in headless Chromium: the function gets the browser's layer (lib/constructs/chromium-layer.ts). */
  browser?: boolean;
  /**
   * Batches the local runtime works on at once, when it should not be the runtime's worker
   * concurrency: a consumer whose event source has no maximum concurrency on AWS scales out far
   * beyond that.
   */
  localConcurrency?: number;
}

export const TASK_QUEUES: Record<TaskPriority, QueueDefinition> = {
  high: { name: 'tasks-high', maxReceiveCount: 5, urlEnv: 'TASK_QUEUE_URL_HIGH' },
  normal: { name: 'tasks-normal', maxReceiveCount: 5, urlEnv: 'TASK_QUEUE_URL_NORMAL' },
  low: { name: 'tasks-low', maxReceiveCount: 5, urlEnv: 'TASK_QUEUE_URL_LOW' },
};

export const taskWorker: ConsumerDefinition = {
  name: 'task-worker',
  // A paused task creates its approval's expiry schedule; a task of a tenant at its concurrency
  // cap is sent back to its queue with a delay (shared/services/task-fairness.ts).
  access: { table: 'read_write', schedules: true, dispatchTasks: true, taskSlots: true, invokeToolProxy: true },
  handler: 'functions/workers/run-task.ts',
  // Listed in dispatch order: the local runtime drains them strictly in this order.
  queues: [TASK_QUEUES.high.name, TASK_QUEUES.normal.name, TASK_QUEUES.low.name],
  batchSize: 5,
  timeoutSeconds: 120,
  // The agents' own work is a few milliseconds of rules; a run is mostly DynamoDB round trips,
  // so more memory (CPU) would bill more GB-s for about the same duration.
  memoryMb: 512,
};

/** Approved actions (mail.send) waiting for the tool proxy, the only function allowed to send. */
export const TOOL_CALL_QUEUE: QueueDefinition = { name: 'tool-calls', maxReceiveCount: 10, urlEnv: 'TOOL_CALL_QUEUE_URL' };

export const toolProxy: ConsumerDefinition = {
  name: 'tool-proxy',
  // It alone opens integration credentials; a click in Slack resolves an approval here (its
  // expiry schedule cancelled, the approved action queued, a denied task resumed).
  access: { table: 'read_write', dispatchTasks: true, sendMail: true, decryptCredentials: true, dispatchToolCalls: true, schedules: true },
  handler: 'functions/workers/execute-tool-call.ts',
  queues: [TOOL_CALL_QUEUE.name],
  batchSize: 1,
  timeoutSeconds: 45,
  memoryMb: 256,
};

/** Webhook delivery attempts; retries are re-sent with a delay (backoff with jitter). */
export const WEBHOOK_DELIVERY_QUEUE: QueueDefinition = {
  name: 'webhook-deliveries',
  maxReceiveCount: 5,
  urlEnv: 'WEBHOOK_DELIVERY_QUEUE_URL',
  deadLetterUrlEnv: 'WEBHOOK_DELIVERY_DLQ_URL',
};

export const webhookDeliverer: ConsumerDefinition = {
  name: 'webhook-deliverer',
  access: { table: 'read_write', dispatchDeliveries: true, decryptSecrets: true },
  handler: 'functions/workers/deliver-webhook.ts',
  queues: [WEBHOOK_DELIVERY_QUEUE.name],
  batchSize: 5,
  // Five deliveries of at most 15 s each, one after another.
  timeoutSeconds: 90,
  // Waits on the receiver, KMS and DynamoDB; signing a body is microseconds.
  memoryMb: 256,
  // Uncapped on AWS, where each task with deliveries under way holds one invocation (its
  // deliveries follow one another in it), so busy producers need many at once.
  localConcurrency: 20,
};

/** One message per (scan, detector): detectors run in parallel and fail alone. */
export const SCAN_DETECTOR_QUEUE: QueueDefinition = { name: 'scan-detectors', maxReceiveCount: 3, urlEnv: 'SCAN_DETECTOR_QUEUE_URL' };

export const scanDetectorWorker: ConsumerDefinition = {
  name: 'scan-detector-worker',
  access: { table: 'read_write' },
  handler: 'functions/workers/run-detector.ts',
  queues: [SCAN_DETECTOR_QUEUE.name],
  // One detector run per invocation: a crawl of up to 50 pages at up to 30 s each is bounded by
  // the crawl budget, and the accessibility detector renders each page in Chromium. 2 GB: the
  // browser's peak plus the function's, with room for a page using its whole script heap
  // (chromium.ts PAGE_HEAP_MB), and the CPU share that size buys (docs/benchmarks.md).
  batchSize: 1,
  timeoutSeconds: 300,
  memoryMb: 2048,
  browser: true,
};

/**
 * Re-stamp jobs: after a tenant's retention changes, one job walks that tenant's artifacts page by
 * page and rewrites their expiry; each message carries the cursor where it continues.
 */
export const RETENTION_QUEUE: QueueDefinition = { name: 'retention-restamps', maxReceiveCount: 5, urlEnv: 'RETENTION_QUEUE_URL' };

export const retentionRestamper: ConsumerDefinition = {
  name: 'retention-restamper',
  access: { table: 'read_write', dispatchRetention: true },
  handler: 'functions/workers/restamp-retention.ts',
  queues: [RETENTION_QUEUE.name],
  // One job at a time per invocation; the handler stops well before the timeout and re-sends.
  batchSize: 1,
  timeoutSeconds: 60,
  memoryMb: 256,
};

export const consumers: readonly ConsumerDefinition[] = [taskWorker, toolProxy, webhookDeliverer, scanDetectorWorker, retentionRestamper];

/** The table's stream consumer: new event items fan out to webhook deliveries. */
export const eventFanOut = {
  name: 'event-fan-out',
  handler: 'functions/streams/fan-out-events.ts',
  access: { table: 'read_write', dispatchDeliveries: true } as FunctionAccess,
  batchSize: 100,
  /**
   * Records are gathered for up to this long before an invocation that is not full: a task's
   * events arrive within a second or two, and one invocation for most of them instead of one
   * per transaction is most of the fan-out's cost. Webhooks wait at most this much longer.
   */
  maxBatchingWindowSeconds: 1,
  timeoutSeconds: 60,
  // Waits on DynamoDB and SQS for each record; the batch itself is small JSON.
  memoryMb: 256,
  /** Only inserted event items reach the function (an event-source filter on AWS). */
  filter: { eventName: 'INSERT', entity: 'event' },
} as const;

/**
 * Event triggers' consumer of the table's stream: a filtered mapping of its own rather than the
 * webhooks' fan-out, so that only `artifact.emitted` events invoke it (and are billed), a trigger
 * that keeps failing holds up no webhook delivery (a stream retries a shard's batch in place), and
 * each function gets only its own access (tasks here, deliveries there). A DynamoDB stream serves
 * two such readers per shard without throttling; these are the two.
 */
export const eventTriggerConsumer = {
  name: 'event-triggers',
  handler: 'functions/streams/run-event-triggers.ts',
  access: { table: 'read_write', dispatchTasks: true, dispatchToolCalls: true, eventTriggers: true } as FunctionAccess,
  batchSize: 25,
  maxBatchingWindowSeconds: 0,
  timeoutSeconds: 60,
  memoryMb: 256,
  /** Inserted items only: events of these types, and chat-reply outbox items (entities/chat.ts). */
  filter: { eventName: 'INSERT', entity: 'event', types: ['artifact.emitted', 'approval.requested', 'approval.resolved'], outboxEntity: 'chat_reply' },
} as const;

/** Whether a stream record reaches the reactions consumer: the local runtime's copy of the CDK filters. */
export function reachesEventTriggers(record: { eventName?: string; dynamodb?: { NewImage?: Record<string, { S?: string }> } }): boolean {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== eventTriggerConsumer.filter.eventName || !image) return false;
  if (image.entity?.S === eventTriggerConsumer.filter.outboxEntity) return true;
  return image.entity?.S === eventTriggerConsumer.filter.entity && (eventTriggerConsumer.filter.types as readonly string[]).includes(image.type?.S ?? '');
}

/** What each one-time schedule target runs (EventBridge Scheduler on AWS, the local runner here). */
export const scheduleTargets = {
  'approval-expiry': 'functions/approvals/expire-approval.ts',
  'session-idle-close': 'functions/sessions/close-idle-session.ts',
  'trigger-fire': 'functions/triggers/fire-scheduled-trigger.ts',
} as const;

export const scheduleTargetAccess: Record<keyof typeof scheduleTargets, FunctionAccess> = {
  'approval-expiry': { table: 'read_write', dispatchTasks: true, schedules: true },
  // Closes an idle session, or schedules itself again for the deadline that activity pushed forward.
  'session-idle-close': { table: 'read_write', schedules: true },
  // A schedule trigger's run creates a task (the task queues); locally it also arms the next run,
  // and on AWS a one-time schedule for a run EventBridge skips (a DST gap).
  'trigger-fire': { table: 'read_write', dispatchTasks: true, schedules: true },
};

/** A function run on a fixed rate (EventBridge Scheduler on AWS, an interval in the local runtime). */
export interface RecurringJobDefinition {
  name: string;
  handler: string;
  /** Minutes between runs: `rate(n minutes)` on AWS. */
  rateMinutes: number;
  access: FunctionAccess;
  timeoutSeconds: number;
  memoryMb: number;
}

/**
 * The stuck-work sweeper: fails tasks past their deadline, re-sends lost task, detector and tool
 * call messages, counts pending approvals (docs/resilience.md). Sends tasks, detector runs and
 * approved actions; never executes them.
 */
export const stuckWorkSweeper: RecurringJobDefinition = {
  name: 'stuck-work-sweeper',
  handler: 'functions/workers/sweep-stuck-work.ts',
  rateMinutes: 1,
  access: { table: 'read_write', dispatchTasks: true, dispatchScans: true, dispatchToolCalls: true },
  // Within one rate period, so sweeps rarely overlap (and are safe when they do).
  timeoutSeconds: 55,
  memoryMb: 512,
};

export const recurringJobs: readonly RecurringJobDefinition[] = [stuckWorkSweeper];

export const VISIBILITY_TIMEOUT_FACTOR = 6;

export function visibilityTimeoutSeconds(queueName: string): number {
  const timeouts = consumers.filter((consumer) => consumer.queues.includes(queueName)).map((consumer) => consumer.timeoutSeconds);
  return Math.max(30, ...timeouts) * VISIBILITY_TIMEOUT_FACTOR;
}

export const allQueues: readonly QueueDefinition[] = [...Object.values(TASK_QUEUES), TOOL_CALL_QUEUE, WEBHOOK_DELIVERY_QUEUE, SCAN_DETECTOR_QUEUE, RETENTION_QUEUE];
