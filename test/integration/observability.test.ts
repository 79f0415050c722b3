import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEvent, Context, SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as deployAgent } from '#functions/agents/deploy-agent';
import { handler as createTask } from '#functions/tasks/create-task';
import { handler as runTask } from '#functions/workers/run-task';
import { sqsClient } from '#shared/adapters/sqs/client';
import { TASK_QUEUES } from '#shared/config/topology';
import { recordMetric } from '#shared/observability/metrics';
import { METRICS_NAMESPACE } from '#shared/observability/metric-catalog';
import { observedHandler } from '#shared/observability/observed-handler';
import { lambdaContext } from '#lib/local/handler-loader';
import type { Provisioned } from '#lib/local/provision';
import { captureJsonOutput } from '../support/captured-output';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

// Before the logger and metrics exist (they read these once): INFO lines and real EMF output.
vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});

let provisioned: Provisioned;
const context = () => lambdaContext('test', 30) as unknown as Context;

function apiEvent(tenantId: string, method: string, resource: string, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyEvent {
  return {
    resource,
    path: resource,
    httpMethod: method,
    headers: { 'Content-Type': 'application/json', ...headers },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: `req-${Math.random().toString(36).slice(2)}`, resourcePath: resource, authorizer: { tenant_id: tenantId, principal_type: 'api_key', principal_id: 'key_test', role: 'admin' } } as never,
  };
}

async function receiveOne(queueUrl: string): Promise<SQSEvent> {
  const { Messages = [] } = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
  expect(Messages).toHaveLength(1);
  const [message] = Messages;
  return {
    Records: [
      {
        messageId: message.MessageId!,
        receiptHandle: message.ReceiptHandle!,
        body: message.Body!,
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
        awsRegion: 'us-east-1',
      },
    ],
  };
}

/** The EMF blobs among the captured lines: namespace, dimension sets, and metric values. */
function emf(lines: Record<string, any>[]) {
  return lines
    .filter((line) => line._aws)
    .map((line) => ({ namespace: line._aws.CloudWatchMetrics[0].Namespace as string, dimensions: line._aws.CloudWatchMetrics[0].Dimensions as string[][], metrics: (line._aws.CloudWatchMetrics[0].Metrics as { Name: string; Unit: string }[]).map((metric) => metric.Name), line }));
}

describe('logs and metrics of a task, from the API request through the queue to the worker', () => {
  let output: ReturnType<typeof captureJsonOutput>;
  beforeAll(async () => {
    provisioned = await provisionForTest('observe');
  });
  beforeEach(() => {
    output = captureJsonOutput();
  });
  afterEach(() => output.restore());

  it("carries the caller's correlation id in the task message, onto the worker's lines; the completion emits both metric series", async () => {
    const tenant = uniqueTenant();
    await deployAgent(apiEvent(tenant, 'POST', '/agents/deploy', { agent_slug: 'sales' }), context());
    const created = await createTask(apiEvent(tenant, 'POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads', input: { limit: 2 }, priority: 'high' }, { 'X-Correlation-Id': 'order-flow-77' }), context());
    const taskId = JSON.parse(created.body).task_id as string;
    const event = await receiveOne(provisioned.queueUrls[TASK_QUEUES.high.name]);
    output.clear();

    const result = await runTask(event, context());

    expect(result).toEqual({ batchItemFailures: [] });
    expect(created.headers).toMatchObject({ 'X-Correlation-Id': 'order-flow-77' });
    const lines = output.json();
    const workerLines = lines.filter((line) => line.message && line.function_name === 'test');
    expect(workerLines.map((line) => line.message)).toEqual(expect.arrayContaining(['task ended', 'task run finished']));
    for (const line of workerLines) expect(line).toMatchObject({ correlation_id: 'order-flow-77', tenant_id: tenant, task_id: taskId, message_id: event.Records[0].messageId });

    const blobs = emf(lines);
    const aggregate = blobs.find((blob) => blob.metrics.includes('TasksCompleted') && blob.dimensions.length === 1 && blob.dimensions[0].length === 1);
    expect(aggregate).toMatchObject({ namespace: METRICS_NAMESPACE, dimensions: [['service']], line: { service: 'gatehouse', TasksCompleted: 1, TaskDuration: expect.any(Number) } });
    expect(aggregate!.line.agent).toBeUndefined();
    for (const name of ['TasksCompleted', 'TaskDuration']) {
      const breakdown = blobs.find((blob) => blob.metrics.includes(name) && blob.dimensions[0].includes('agent'));
      expect(breakdown).toMatchObject({ namespace: 'Gatehouse', dimensions: [['service', 'agent', 'task_type']], line: { service: 'gatehouse', agent: 'sales', task_type: 'sales.find_leads' } });
    }
  });

  it('flushes the metrics an invocation recorded even when its handler throws', async () => {
    const failing = observedHandler(async () => {
      recordMetric('webhookDeliveries', 1);
      throw new Error('the receiver exploded');
    });

    await expect(failing({}, context())).rejects.toThrow('the receiver exploded');

    const lines = output.json();
    expect(emf(lines).find((blob) => blob.metrics.includes('WebhookDeliveries'))).toMatchObject({ namespace: 'Gatehouse', dimensions: [['service']], line: { WebhookDeliveries: 1 } });
    expect(lines.find((line) => line.message === 'invocation failed')).toMatchObject({ level: 'ERROR', error: { message: 'the receiver exploded' } });
  });

  it('writes no EMF line (and no warning) for an invocation that recorded nothing', async () => {
    await observedHandler(async () => 'nothing to count')({}, context());

    expect(output.json()).toEqual([]);
  });
});
