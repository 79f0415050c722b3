import { Capture, Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TASK_QUEUES, VISIBILITY_TIMEOUT_FACTOR, allQueues, taskWorker, visibilityTimeoutSeconds, type QueueDefinition } from '#shared/config/topology';
import type { TaskPriority } from '#shared/domain/task';
import { QUEUE_MAX_CONCURRENCY } from '#shared/config/lambda-concurrency';
import { synthGatehouse } from './synth';
import { dataKeyId, idAtPath, workerId, type CfnResource } from './template-queries';

const FOURTEEN_DAYS = 14 * 24 * 60 * 60;
const definitions = Object.entries(TASK_QUEUES) as [TaskPriority, QueueDefinition][];
const EXPECTED_MAX_CONCURRENCY: Record<TaskPriority, number> = { high: 20, normal: 10, low: 5 };

describe('task queues and worker', () => {
  let template: Template;
  const queueId = (name: string) => idAtPath(template, 'AWS::SQS::Queue', `Gatehouse/Tasks/${name}/Resource`);
  const mappings = () => Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as CfnResource[];

  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it('creates one queue and one dead-letter queue per queue of topology.ts, plus the two stream consumers\' and the mail receiver\'s failure queues', () => {
    expect(allQueues.length).toBeGreaterThan(definitions.length);
    template.resourceCountIs('AWS::SQS::Queue', 2 * allQueues.length + 3);
    for (const definition of allQueues) {
      expect(queueId(definition.name)).toBeTruthy();
      expect(queueId(`${definition.name}-dlq`)).toBeTruthy();
    }
  });

  it.each(definitions)('redrives the %s queue to its own DLQ after maxReceiveCount and keeps dead letters 14 days', (_, definition) => {
    const deadLetterQueue = new Capture();

    template.hasResource('AWS::SQS::Queue', {
      Metadata: { 'aws:cdk:path': `Gatehouse/Tasks/${definition.name}/Resource` },
      Properties: Match.objectLike({
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterQueue, 'Arn'] }, maxReceiveCount: definition.maxReceiveCount },
      }),
    });

    expect(deadLetterQueue.asString()).toBe(queueId(`${definition.name}-dlq`));
    template.hasResource('AWS::SQS::Queue', {
      Metadata: { 'aws:cdk:path': `Gatehouse/Tasks/${definition.name}-dlq/Resource` },
      Properties: Match.objectLike({ MessageRetentionPeriod: FOURTEEN_DAYS }),
    });
  });

  it.each(definitions)('hides a received %s message for at least six worker timeouts', (_, definition) => {
    const queue = template.findResources('AWS::SQS::Queue')[queueId(definition.name)] as CfnResource;

    expect(queue.Properties.VisibilityTimeout).toBe(visibilityTimeoutSeconds(definition.name));
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUT_FACTOR * taskWorker.timeoutSeconds);
  });

  it('encrypts every queue with the customer-managed data key and denies access without TLS', () => {
    const queueIds = Object.keys(template.findResources('AWS::SQS::Queue'));

    template.allResourcesProperties('AWS::SQS::Queue', { KmsMasterKeyId: { 'Fn::GetAtt': [dataKeyId(template), 'Arn'] } });
    for (const id of queueIds) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 'sqs:*',
              Principal: { AWS: '*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });

  it('feeds the worker from each task queue exactly once, in batches, with partial batch failures', () => {
    const worker = workerId(template);
    const workerMappings = mappings().filter(({ Properties }) => Properties.FunctionName.Ref === worker);

    for (const mapping of workerMappings) {
      expect(mapping.Properties).toMatchObject({ BatchSize: taskWorker.batchSize, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    }
    expect(workerMappings.map(({ Properties }) => Properties.EventSourceArn['Fn::GetAtt'][0]).sort()).toEqual(taskWorker.queues.map(queueId).sort());
  });

  it.each(definitions)('caps the %s queue mapping concurrency, so priorities share the worker', (priority, definition) => {
    const mapping = mappings().find((candidate) => candidate.Properties.EventSourceArn['Fn::GetAtt'][0] === queueId(definition.name));

    expect(mapping?.Properties.ScalingConfig).toEqual({ MaximumConcurrency: EXPECTED_MAX_CONCURRENCY[priority] });
  });

  it('caps every SQS event source mapping of the stack at its queue\'s figure from shared/config/lambda-concurrency.ts, and that module names only real consumed queues', () => {
    const queues = Object.entries(template.findResources('AWS::SQS::Queue')).map(([id, queue]) => ({ id, path: String((queue as CfnResource).Metadata?.['aws:cdk:path'] ?? '') }));
    const queueName = (id: string) => queues.find((queue) => queue.id === id)?.path.match(/^Gatehouse\/Tasks\/([^/]+)\/Resource$/)?.[1];
    const sqsMappings = mappings().filter(({ Properties }) => queues.some((queue) => queue.id === Properties.EventSourceArn?.['Fn::GetAtt']?.[0]));

    const caps = sqsMappings.map(({ Properties }) => {
      const name = queueName(Properties.EventSourceArn['Fn::GetAtt'][0]);
      return { name, maximum: Properties.ScalingConfig?.MaximumConcurrency };
    });

    expect(caps.map(({ name }) => name).sort()).toEqual(Object.keys(QUEUE_MAX_CONCURRENCY).sort());
    for (const { name, maximum } of caps) expect(maximum, name).toBe(QUEUE_MAX_CONCURRENCY[name!]);
  });
});
