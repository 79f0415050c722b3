import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Key, type IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { eventFanOut } from '#shared/config/topology';
import { functionId, GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';
import { acknowledgeFailureDestination } from '#lib/nag';

/**
 * Stream retries before a batch goes to the failure queue. With bisection and partial batch
 * responses a poison record is isolated within a few of them; the rest absorb a table or queue
 * outage of minutes. While a batch retries, its shard waits (records stay in order).
 */
export const FAN_OUT_RETRY_ATTEMPTS = 10;
/** The stream keeps records 24 h: retrying longer is impossible, giving up sooner loses events. */
export const FAN_OUT_MAX_RECORD_AGE = Duration.hours(24);

/**
 * Webhooks on AWS, besides the delivery queue and its deliverer (topology.ts consumers, built with
 * the other queues by `Tasks`):
 * - the customer-managed KMS key webhook signing secrets are encrypted under. It exists first,
 *   because the functions that encrypt (create, rotate) and decrypt (the deliverer) get it through
 *   `DataResources.secretsKey`;
 * - the fan-out function (`eventFanOut`), fed by the table's stream, filtered to inserted event
 *   items, with a failure queue for batches that exhaust their retries. Created by `bind` once the
 *   delivery queue exists.
 */
export class Webhooks extends Construct {
  public readonly secretsKey: Key;
  /** Stream batches the fan-out gave up on: Lambda sends their shard and sequence range, not the records. */
  public readonly fanOutFailures: Queue;
  private fanOutFunction?: GatehouseFunction;

  /** `queueKey`: the key of the fan-out failure queue, as of every other queue (`Keys.data`). */
  public constructor(scope: Construct, id: string, props: { queueKey: IKey }) {
    super(scope, id);
    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Gatehouse: encrypts webhook signing secrets (encryption context: tenant, webhook, purpose).',
      enableKeyRotation: true,
      // Deleting the key would make every stored signing secret undecryptable.
      removalPolicy: RemovalPolicy.RETAIN,
      // Per stack, like the schedule group: two stacks in one account and region must not collide.
      alias: `alias/${Stack.of(this).stackName}/webhook-secrets`,
    });
    this.fanOutFailures = new Queue(this, 'FanOutFailures', {
      enforceSSL: true,
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: props.queueKey,
      // The longest SQS allows: the stream itself forgets the records after 24 h, so an operator
      // replays from the table (POST /webhooks/{id}/recover) within this window.
      retentionPeriod: Duration.days(14),
    });
    acknowledgeFailureDestination(this.fanOutFailures);
  }

  /** The fan-out function; `bind` creates it. */
  public get fanOut(): GatehouseFunction {
    if (!this.fanOutFunction) throw new Error('Webhooks.bind has not run yet.');
    return this.fanOutFunction;
  }

  /** Creates the fan-out function on the table's stream, with the access `eventFanOut` declares. */
  public bind(resources: DataResources): void {
    if (this.fanOutFunction) throw new Error('Webhooks.bind runs once.');
    const fn = new GatehouseFunction(this, functionId(eventFanOut.handler), {
      handlerFile: eventFanOut.handler,
      timeout: Duration.seconds(eventFanOut.timeoutSeconds),
      memorySize: eventFanOut.memoryMb,
    });
    fn.bindData(eventFanOut.access, resources);
    fn.addEventSource(
      new DynamoEventSource(resources.table, {
        // TRIM_HORIZON, not LATEST: a new or re-created mapping starts at the oldest record the stream
        // still holds (24 h), so events written while no mapping existed (first deploy, a replaced
        // function) are fanned out rather than silently skipped. Replays are harmless: fan-out is
        // idempotent (one delivery record per subscription and event; an existing one queues nothing).
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: eventFanOut.batchSize,
        maxBatchingWindow: Duration.seconds(eventFanOut.maxBatchingWindowSeconds),
        // The handler reports the first failed record; bisection splits a batch that fails as a whole
        // (timeout, crash) until the poison record is alone, so it cannot hold the shard hostage.
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: FAN_OUT_RETRY_ATTEMPTS,
        maxRecordAge: FAN_OUT_MAX_RECORD_AGE,
        onFailure: new SqsDlq(this.fanOutFailures),
        // Only inserted event items invoke the function (and are billed); the handler checks again.
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual(eventFanOut.filter.eventName),
            dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(eventFanOut.filter.entity) } } },
          }),
        ],
      }),
    );
    this.fanOutFunction = fn;
  }
}
