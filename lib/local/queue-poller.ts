import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { ConsumerDefinition } from '#shared/config/topology';
import { once } from '#shared/config/env';
import { newSqsClient } from '#shared/adapters/sqs/client';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';

function toRecord(message: Message, queueUrl: string): SQSEvent['Records'][number] {
  const queueName = queueUrl.split('/').pop() ?? 'queue';
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queueName}`,
    awsRegion: 'us-east-1',
  };
}

/**
 * The event-source mappings' own client. On AWS they are the Lambda service's pollers, not the
 * function's: sharing the handlers' client here would let idle long polls (one per loop, each
 * holding a socket for up to LONG_POLL_SECONDS) take the connection pool (50 sockets) that the
 * handlers' sends wait for. Its own pool has a socket for every loop of every consumer.
 */
export const eventSourceSqsClient = once(() => newSqsClient({ maxSockets: 1_000 }));

/** Below the SQS client's request timeout (shared/adapters/sqs/client.ts), which a long poll must not reach. */
const LONG_POLL_SECONDS = 2;
/** How long an idle loop other than the scout rests between passes unless work arrives. */
const RESTING_DELAY_MS = 2_000;

/**
 * Plays Lambda's SQS event-source mapping for one consumer: receives batches, invokes the
 * handler with a real SQS event, deletes the messages that succeeded and leaves those named in
 * `batchItemFailures` (or all, if the handler threw) to reappear after the visibility timeout.
 * Queues are drained strictly in the consumer's order, which is how task priority holds locally.
 */
export class QueuePoller {
  private running = false;
  private loops: Promise<void>[] = [];
  /**
   * End the long polls in progress when the poller stops: one per loop, since each poll adds its
   * abort listeners to the signal, and a signal shared by every loop of a wide consumer collects
   * more than Node's default of ten (MaxListenersExceededWarning at each start).
   */
  private stopping: AbortController[] = [];

  constructor(
    private readonly consumer: ConsumerDefinition,
    private readonly queueUrls: string[],
    private readonly concurrency: number,
    private readonly idleDelayMs = 100,
  ) {}

  start(): void {
    this.running = true;
    this.stopping = Array.from({ length: this.concurrency }, () => new AbortController());
    this.loops = this.stopping.map((controller) => this.loop(controller.signal));
  }

  /** Stops receiving and waits for batches in flight to finish. */
  async stop(): Promise<void> {
    this.running = false;
    for (const controller of this.stopping) controller.abort();
    this.wakeIdleLoops();
    await Promise.all(this.loops);
  }

  /** Loops resting after finding every queue empty, each with the function that ends its rest. */
  private readonly resting = new Set<() => void>();

  /** Whether an idle loop is already due to look again after `idleDelayMs`. */
  private scouting = false;

  /**
   * After a pass that found nothing. Where queues are polled without waiting, one idle loop (the
   * scout) looks again after `idleDelayMs` and the others rest up to RESTING_DELAY_MS, until a
   * loop receives work: an idle consumer then costs a pass every `idleDelayMs`, not one per loop,
   * and a burst still gets every loop at once. Long-polling loops wait in the poll instead.
   */
  private rest(): Promise<void> {
    const scout = this.queueUrls.length === 1 || !this.scouting;
    if (scout) this.scouting = true;
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.resting.delete(end);
        if (scout) this.scouting = false;
        resolve();
      };
      const timer = setTimeout(end, scout ? this.idleDelayMs : RESTING_DELAY_MS);
      this.resting.add(end);
    });
  }

  private wakeIdleLoops(): void {
    for (const end of [...this.resting]) end();
  }

  private async loop(stopping: AbortSignal): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        for (const queueUrl of this.queueUrls) {
          const { Messages } = await eventSourceSqsClient().send(
            new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: this.consumer.batchSize, WaitTimeSeconds: this.waitSeconds(), MessageSystemAttributeNames: ['All'] }),
            { abortSignal: stopping },
          );
          if (Messages?.length) {
            this.wakeIdleLoops();
            await this.invoke(queueUrl, Messages);
            worked = true;
            break;
          }
        }
      } catch (error) {
        if (this.running) console.error(JSON.stringify({ level: 'ERROR', message: 'queue poll failed', consumer: this.consumer.name, error: String(error) }));
      }
      if (!worked && this.running) await this.rest();
    }
  }

  /**
   * Long polls, as Lambda's pollers do, where only one queue is read: an idle consumer then costs
   * a request every LONG_POLL_SECONDS per loop instead of ten a second, and a message is taken as
   * soon as it arrives. Queues read in priority order are polled without waiting, so that a wait
   * on one never holds back another.
   */
  private waitSeconds(): number {
    return this.queueUrls.length === 1 ? LONG_POLL_SECONDS : 0;
  }

  private async invoke(queueUrl: string, messages: Message[]): Promise<void> {
    const event: SQSEvent = { Records: messages.map((message) => toRecord(message, queueUrl)) };
    let failed = new Set<string>();
    try {
      const handler = await loadHandler(this.consumer.handler);
      const result = (await handler(event, lambdaContext(this.consumer.name, this.consumer.timeoutSeconds))) as SQSBatchResponse | undefined;
      failed = new Set((result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'consumer invocation failed; batch will be redelivered', consumer: this.consumer.name, error: String(error) }));
      return;
    }
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length === 0) return;
    await eventSourceSqsClient().send(
      new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })) }),
    );
  }
}
