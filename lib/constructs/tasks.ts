import { Duration, Size } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TASK_QUEUES, TOOL_CALL_QUEUE, SCAN_DETECTOR_QUEUE, RETENTION_QUEUE, WEBHOOK_DELIVERY_QUEUE, allQueues, consumers, toolProxy as toolProxyConsumer, visibilityTimeoutSeconds, type ConsumerDefinition, type QueueDefinition } from '#shared/config/topology';
import type { TaskPriority } from '#shared/domain/task';
import { queueMaxConcurrency } from '#shared/config/lambda-concurrency';
import { GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';
import { CHROMIUM_ARCHITECTURE, CHROMIUM_ENVIRONMENT, CHROMIUM_EPHEMERAL_MB, chromiumLayer } from '#lib/constructs/chromium-layer';

/**
 * Construct ids that predate deriving consumers from topology.ts: changing one would replace the
 * function (and orphan its log group). Every other consumer's id is its name in PascalCase.
 */
const LEGACY_CONSUMER_IDS: Readonly<Record<string, string>> = { 'task-worker': 'Worker' };

/** `webhook-deliverer` → `WebhookDeliverer`: the construct id of a consumer. */
export function consumerConstructId(consumer: ConsumerDefinition): string {
  return LEGACY_CONSUMER_IDS[consumer.name] ?? consumer.name.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/** Everything the consumers may be bound to except the queues, which this construct creates. */
export type TasksProps = Omit<DataResources, 'taskQueues' | 'toolCallQueue' | 'deliveryQueue' | 'scanQueue' | 'retentionQueue'> & {
  /** The customer-managed key of every queue and dead-letter queue (`Keys.data`). */
  queueKey: IKey;
};

/**
 * Every queue of topology.ts (`allQueues`), each with a dead-letter queue, and every consumer
 * (`consumers`): the task queues with the worker that runs tasks, the tool-call queue with the tool
 * proxy that executes approved actions, the webhook delivery queue with the deliverer. Each
 * consumer gets exactly the access its definition declares, and send on the dead-letter queue of
 * a queue it consumes whose definition says consumers dead-letter themselves (`deadLetterUrlEnv`).
 */
export class Tasks extends Construct {
  public readonly queues: Record<TaskPriority, Queue>;
  /** Approved actions waiting for the tool proxy. */
  public readonly toolCalls: Queue;
  /** Webhook delivery attempts waiting for the deliverer. */
  public readonly deliveries: Queue;
  /** Every queue of topology.ts by its name (dead-letter queues not included). */
  public readonly queuesByName: ReadonlyMap<string, Queue>;
  /** Every consumer's function, by consumer name. */
  public readonly consumers: ReadonlyMap<string, GatehouseFunction>;
  /** `props` with this construct's queues: what every other function is bound to. */
  public readonly resources: DataResources;

  public constructor(scope: Construct, id: string, props: TasksProps) {
    super(scope, id);
    const { queueKey, ...rest } = props;
    const queuesByName = new Map(allQueues.map((definition) => [definition.name, this.queue(definition, queueKey)] as const));
    const byName = (definition: QueueDefinition): Queue => queuesByName.get(definition.name)!;
    const priorities = Object.entries(TASK_QUEUES) as [TaskPriority, QueueDefinition][];
    this.queuesByName = queuesByName;
    this.queues = Object.fromEntries(priorities.map(([priority, definition]) => [priority, byName(definition)])) as Record<TaskPriority, Queue>;
    this.toolCalls = byName(TOOL_CALL_QUEUE);
    this.deliveries = byName(WEBHOOK_DELIVERY_QUEUE);
    this.resources = { ...rest, taskQueues: this.queues, toolCallQueue: this.toolCalls, deliveryQueue: this.deliveries, scanQueue: byName(SCAN_DETECTOR_QUEUE), retentionQueue: byName(RETENTION_QUEUE) };

    const definitionsByName = new Map(allQueues.map((definition) => [definition.name, definition]));
    let browser: ReturnType<typeof chromiumLayer> | undefined;
    const consumer = (definition: ConsumerDefinition): GatehouseFunction => {
      if (definition.browser) browser ??= chromiumLayer(this, 'ChromiumLayer');
      const fn = new GatehouseFunction(this, consumerConstructId(definition), {
        handlerFile: definition.handler,
        timeout: Duration.seconds(definition.timeoutSeconds),
        memorySize: definition.memoryMb,
        ...(browser && definition.browser ? { layers: [browser], architecture: CHROMIUM_ARCHITECTURE, ephemeralStorageSize: Size.mebibytes(CHROMIUM_EPHEMERAL_MB), environment: CHROMIUM_ENVIRONMENT } : {}),
      });
      fn.bindData(definition.access, this.resources);
      for (const name of definition.queues) {
        const queue = queuesByName.get(name);
        const queueDefinition = definitionsByName.get(name);
        if (!queue || !queueDefinition) throw new Error(`Consumer ${definition.name} reads unknown queue ${name}.`);
        fn.addEventSource(
          new SqsEventSource(queue, {
            batchSize: definition.batchSize,
            // Consumers return failed message ids, so one bad message does not redeliver the batch.
            reportBatchItemFailures: true,
            // Shares of the account's concurrency, so one kind of work cannot take all of it.
            maxConcurrency: queueMaxConcurrency(name),
          }),
        );
        // The deliverer dead-letters a delivery whose retries are exhausted itself: retries are new
        // delayed messages, so SQS redrive never sees them fail. Send only; nothing else writes there.
        if (queueDefinition.deadLetterUrlEnv && queue.deadLetterQueue) {
          fn.addEnvironment(queueDefinition.deadLetterUrlEnv, queue.deadLetterQueue.queue.queueUrl);
          queue.deadLetterQueue.queue.grantSendMessages(fn);
        }
      }
      return fn;
    };
    // The tool proxy first: the task worker invokes it (DataResources.toolProxy).
    const proxy = consumer(toolProxyConsumer);
    this.resources.toolProxy = proxy;
    this.consumers = new Map(consumers.map((definition) => [definition.name, definition === toolProxyConsumer ? proxy : consumer(definition)]));
  }

  private queue(definition: QueueDefinition, key: IKey): Queue {
    // CDK's queue grants add the key's actions: producers GenerateDataKey/Encrypt, consumers Decrypt.
    const secure = { enforceSSL: true, encryption: QueueEncryption.KMS, encryptionMasterKey: key };
    const deadLetterQueue = new Queue(this, `${definition.name}-dlq`, {
      ...secure,
      // The longest SQS allows: time for an operator to inspect and redrive.
      retentionPeriod: Duration.days(14),
    });
    return new Queue(this, definition.name, {
      ...secure,
      visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(definition.name)),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
    });
  }
}
