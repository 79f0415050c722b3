import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEvent, Context, SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { sqsClient } from '#shared/adapters/sqs/client';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { RETENTION_QUEUE, TASK_QUEUES } from '#shared/config/topology';
import { handler as createTask } from '#functions/tasks/create-task';
import { handler as deployAgent } from '#functions/agents/deploy-agent';
import { handler as runTask } from '#functions/workers/run-task';
import { lambdaContext } from '#lib/local/handler-loader';
import type { Provisioned } from '#lib/local/provision';
import { eventSourceSqsClient, QueuePoller } from '#lib/local/queue-poller';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

let provisioned: Provisioned;
const context = lambdaContext('test', 30) as unknown as Context;

/** The event API Gateway hands a route once the authorizer allowed the tenant. */
function apiEvent(tenantId: string, method: string, resource: string, body?: unknown): APIGatewayProxyEvent {
  return {
    resource,
    path: resource,
    httpMethod: method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: body === undefined ? null : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: `req-${Math.random()}`, authorizer: { tenant_id: tenantId, principal_type: 'api_key', principal_id: 'key_test', role: 'admin' } } as never,
  };
}

async function receiveAll(queueUrl: string) {
  const { Messages } = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, MessageSystemAttributeNames: ['All'] }));
  return Messages ?? [];
}

function sqsEvent(messages: { MessageId?: string; ReceiptHandle?: string; Body?: string }[]): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: message.MessageId!,
      receiptHandle: message.ReceiptHandle!,
      body: message.Body!,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
      awsRegion: 'us-east-1',
    })),
  };
}

describe('task queues with the SQS emulator and DynamoDB Local', () => {
  beforeAll(async () => {
    provisioned = await provisionForTest('queue');
  });

  it('create-task puts the task on the queue of its priority, and the worker runs it from that message', async () => {
    const tenant = uniqueTenant();
    await deployAgent(apiEvent(tenant, 'POST', '/agents/deploy', { agent_slug: 'sales' }), context);

    const response = await createTask(apiEvent(tenant, 'POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads', input: { limit: 2 }, priority: 'low' }), context);

    expect(response.statusCode).toBe(202);
    const taskId = JSON.parse(response.body).task_id;
    expect(await receiveAll(provisioned.queueUrls[TASK_QUEUES.high.name])).toEqual([]);
    const messages = await receiveAll(provisioned.queueUrls[TASK_QUEUES.low.name]);
    // The request's correlation id rides along, so the worker logs under the same id.
    expect(messages.map((message) => JSON.parse(message.Body!))).toEqual([{ tenant_id: tenant, task_id: taskId, correlation_id: expect.any(String) }]);

    const result = await runTask(sqsEvent(messages), context);

    expect(result).toEqual({ batchItemFailures: [] });
    expect((await taskRepository.load(tenant, taskId))?.status).toBe('complete');
  });

  it('drops a message no task can come from instead of retrying it forever', async () => {
    const result = await runTask(sqsEvent([{ MessageId: 'm1', ReceiptHandle: 'r1', Body: 'not json' }, { MessageId: 'm2', ReceiptHandle: 'r2', Body: '{"tenant_id":"x"}' }]), context);
    expect(result).toEqual({ batchItemFailures: [] });
  });

  it('the local event-source mapping drains high before normal before low and redelivers reported failures', async () => {
    const urls = [TASK_QUEUES.high, TASK_QUEUES.normal, TASK_QUEUES.low].map((queue) => provisioned.queueUrls[queue.name]);
    for (const [index, body] of ['low-1', 'normal-1', 'high-1', 'low-2-fail', 'high-2'].entries()) {
      const url = body.startsWith('high') ? urls[0] : body.startsWith('normal') ? urls[1] : urls[2];
      await sqsClient().send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageDeduplicationId: String(index) }));
    }
    const inFlightBefore = Number((await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: urls[2], AttributeNames: ['ApproximateNumberOfMessagesNotVisible'] }))).Attributes!.ApproximateNumberOfMessagesNotVisible);
    const { received } = await import('../support/recording-consumer');
    received.length = 0;
    const poller = new QueuePoller({ name: 'recorder', access: { table: 'read' }, handler: 'test/support/recording-consumer.ts', queues: [], batchSize: 1, timeoutSeconds: 5, memoryMb: 128 }, urls, 1, 20);

    poller.start();
    for (let waited = 0; received.length < 5 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    await poller.stop();

    expect(received).toEqual(['high-1', 'high-2', 'normal-1', 'low-1', 'low-2-fail']);
    const { Attributes } = await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: urls[2], AttributeNames: ['ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessages'] }));
    // The failed message waits out its visibility timeout in flight; the others were deleted.
    expect(Attributes).toMatchObject({ ApproximateNumberOfMessagesNotVisible: String(inFlightBefore + 1), ApproximateNumberOfMessages: '0' });
  });

  it('an idle consumer of several queues polls through one scout loop, and work wakes the others', async () => {
    const urls = [TASK_QUEUES.high, TASK_QUEUES.normal, TASK_QUEUES.low].map((queue) => provisioned.queueUrls[queue.name]);
    const { received } = await import('../support/recording-consumer');
    received.length = 0;
    let receives = 0;
    const stack = eventSourceSqsClient().middlewareStack;
    stack.add((next) => (args) => {
      receives += 1;
      return next(args);
    }, { step: 'initialize', name: 'countReceives', tags: ['TEST'] });
    const loops = 4;
    const idleDelayMs = 25;
    const poller = new QueuePoller({ name: 'recorder', access: { table: 'read' }, handler: 'test/support/recording-consumer.ts', queues: [], batchSize: 1, timeoutSeconds: 5, memoryMb: 128 }, urls, loops, idleDelayMs);
    try {
      poller.start();
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const idleMs = performance.now() - started;
      const idleReceives = receives;
      // One scout pass (three receives) per idle delay, and each resting loop's pass every 2 s
      // at most; every loop polling on its own would be `loops` times the first term. Late timers
      // only lower the count.
      expect(idleReceives).toBeLessThanOrEqual(urls.length * (idleMs / idleDelayMs + 2) + urls.length * (loops - 1) * (idleMs / 2_000 + 2));

      for (const [index, body] of ['wake-1', 'wake-2', 'wake-3'].entries()) {
        await sqsClient().send(new SendMessageCommand({ QueueUrl: urls[2], MessageBody: body, MessageDeduplicationId: `wake-${index}` }));
      }
      for (let waited = 0; received.length < 3 && waited < 10_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
      expect([...received].sort()).toEqual(['wake-1', 'wake-2', 'wake-3']);
    } finally {
      await poller.stop();
      stack.remove('countReceives');
    }
  });

  it('the local event-source mapping polls through its own client, never the handlers\' one', async () => {
    // On AWS the mapping is the Lambda service's poller. Sharing the handlers' client here let idle
    // long polls (one per loop, each up to two seconds) take the pool of sockets the handlers' sends need.
    const urls = [provisioned.queueUrls[RETENTION_QUEUE.name]];
    const calls = { handlers: 0, mapping: 0 };
    const counting = (key: keyof typeof calls) => (next: (args: unknown) => Promise<unknown>) => (args: unknown) => {
      calls[key] += 1;
      return next(args);
    };
    sqsClient().middlewareStack.add(counting('handlers') as never, { step: 'initialize', name: 'countHandlerCalls', tags: ['TEST'] });
    eventSourceSqsClient().middlewareStack.add(counting('mapping') as never, { step: 'initialize', name: 'countMappingCalls', tags: ['TEST'] });
    const { received } = await import('../support/recording-consumer');
    received.length = 0;
    const poller = new QueuePoller({ name: 'recorder', access: { table: 'read' }, handler: 'test/support/recording-consumer.ts', queues: [], batchSize: 1, timeoutSeconds: 5, memoryMb: 128 }, urls, 3);
    try {
      poller.start();
      await sqsClient().send(new SendMessageCommand({ QueueUrl: urls[0], MessageBody: 'through-the-mapping', MessageDeduplicationId: 'through-the-mapping' }));
      for (let waited = 0; received.length < 1 && waited < 10_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      await poller.stop();
      sqsClient().middlewareStack.remove('countHandlerCalls');
      eventSourceSqsClient().middlewareStack.remove('countMappingCalls');
    }
    expect(received).toEqual(['through-the-mapping']);
    // The test's own send; the receives and the delete went through the mapping's client.
    expect(calls.handlers).toBe(1);
    expect(calls.mapping).toBeGreaterThanOrEqual(2);
  });
});
