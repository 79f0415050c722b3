import { Duration } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { eventTriggerConsumer } from '#shared/config/topology';
import { functionId, GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';
import { FAN_OUT_MAX_RECORD_AGE, FAN_OUT_RETRY_ATTEMPTS } from '#lib/constructs/webhooks';
import { acknowledgeFailureDestination } from '#lib/nag';

/**
 * Event triggers on AWS: a function on the table's stream, filtered to inserted `artifact.emitted`
 * events (topology.ts `eventTriggerConsumer` says why it is a mapping of its own), with a failure
 * queue for batches that exhaust their retries. Created by `bind` once the task queues exist.
 */
export class EventTriggers extends Construct {
  /** Stream batches the consumer gave up on (their shard and sequence range). */
  public readonly failures: Queue;
  private consumerFunction?: GatehouseFunction;

  public constructor(scope: Construct, id: string, props: { queueKey: IKey }) {
    super(scope, id);
    this.failures = new Queue(this, 'Failures', { enforceSSL: true, encryption: QueueEncryption.KMS, encryptionMasterKey: props.queueKey, retentionPeriod: Duration.days(14) });
    acknowledgeFailureDestination(this.failures);
  }

  public get consumer(): GatehouseFunction {
    if (!this.consumerFunction) throw new Error('EventTriggers.bind has not run yet.');
    return this.consumerFunction;
  }

  public bind(resources: DataResources): void {
    if (this.consumerFunction) throw new Error('EventTriggers.bind runs once.');
    const fn = new GatehouseFunction(this, functionId(eventTriggerConsumer.handler), {
      handlerFile: eventTriggerConsumer.handler,
      timeout: Duration.seconds(eventTriggerConsumer.timeoutSeconds),
      memorySize: eventTriggerConsumer.memoryMb,
    });
    fn.bindData(eventTriggerConsumer.access, resources);
    fn.addEventSource(
      new DynamoEventSource(resources.table, {
        // As the fan-out: a new mapping starts at the oldest record the stream holds; replays are
        // harmless, each run's id is its claim.
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: eventTriggerConsumer.batchSize,
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: FAN_OUT_RETRY_ATTEMPTS,
        maxRecordAge: FAN_OUT_MAX_RECORD_AGE,
        onFailure: new SqsDlq(this.failures),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual(eventTriggerConsumer.filter.eventName),
            dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(eventTriggerConsumer.filter.entity) }, type: { S: FilterRule.or(...eventTriggerConsumer.filter.types) } } },
          }),
          FilterCriteria.filter({
            eventName: FilterRule.isEqual(eventTriggerConsumer.filter.eventName),
            dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(eventTriggerConsumer.filter.outboxEntity) } } },
          }),
        ],
      }),
    );
    this.consumerFunction = fn;
  }
}
