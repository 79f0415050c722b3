import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TASK_QUEUES, taskWorker, visibilityTimeoutSeconds, type QueueDefinition } from '#shared/config/topology';
import type { TaskPriority } from '#shared/domain/task';
import { GatehouseFunction } from '#lib/constructs/gatehouse-function';

/**
 * SQS has no message priority, and three event source mappings on one function are polled
 * independently. Capping each mapping's concurrency splits the worker's capacity into shares,
 * so under load high-priority tasks get four times the workers of low ones and a flood of
 * low-priority work cannot starve the rest (the local runtime drains queues strictly in order).
 */
const MAX_CONCURRENCY: Record<TaskPriority, number> = { high: 20, normal: 10, low: 5 };

export interface TasksProps {
  table: ITable;
}

/** The task queues (each with a dead-letter queue) and the worker that runs their messages. */
export class Tasks extends Construct {
  public readonly queues: Record<TaskPriority, Queue>;
  public readonly worker: GatehouseFunction;

  public constructor(scope: Construct, id: string, { table }: TasksProps) {
    super(scope, id);
    const entries = Object.entries(TASK_QUEUES) as [TaskPriority, QueueDefinition][];
    this.queues = Object.fromEntries(entries.map(([priority, definition]) => [priority, this.queue(definition)])) as Record<TaskPriority, Queue>;

    this.worker = new GatehouseFunction(this, 'Worker', {
      handlerFile: taskWorker.handler,
      timeout: Duration.seconds(taskWorker.timeoutSeconds),
      memorySize: taskWorker.memoryMb,
    });
    // The worker only records runs in the table; it never dispatches further tasks.
    this.worker.bindData({ table: 'read_write' }, { table, taskQueues: this.queues });

    for (const [priority, definition] of entries) {
      if (!taskWorker.queues.includes(definition.name)) continue;
      this.worker.addEventSource(
        new SqsEventSource(this.queues[priority], {
          batchSize: taskWorker.batchSize,
          // The worker returns failed message ids, so one bad message does not redeliver the batch.
          reportBatchItemFailures: true,
          maxConcurrency: MAX_CONCURRENCY[priority],
        }),
      );
    }
  }

  private queue(definition: QueueDefinition): Queue {
    const secure = { enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED };
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
