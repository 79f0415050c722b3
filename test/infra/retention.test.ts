import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import { RETENTION_QUEUE, VISIBILITY_TIMEOUT_FACTOR, retentionRestamper } from '#shared/config/topology';
import { synthGatehouse } from './synth';
import { actionsOf, consumerId, functionIdFor, getAttTarget, queueIdFor, roleStatements, type CfnResource } from './template-queries';

const retentionRoute = (method: string) => routes.find((route) => route.method === method && route.path === '/settings/retention')!;

describe('retention on AWS', () => {
  let template: Template;
  const environmentOf = (id: string) => (template.toJSON().Resources[id] as CfnResource).Properties.Environment?.Variables ?? {};
  const sendsTo = (functionId: string) =>
    roleStatements(template, functionId)
      .filter((statement) => actionsOf([statement]).includes('sqs:SendMessage'))
      .flatMap((statement) => [statement.Resource].flat().map(getAttTarget));

  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it('lets DynamoDB TTL delete items by expires_at_epoch', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } });
  });

  it('queues re-stamp jobs with a dead-letter queue and a visibility timeout of six consumer timeouts', () => {
    const queue = template.toJSON().Resources[queueIdFor(template, RETENTION_QUEUE.name)] as CfnResource;

    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUT_FACTOR * retentionRestamper.timeoutSeconds);
    expect(queue.Properties.RedrivePolicy).toMatchObject({ maxReceiveCount: RETENTION_QUEUE.maxReceiveCount, deadLetterTargetArn: { 'Fn::GetAtt': [queueIdFor(template, `${RETENTION_QUEUE.name}-dlq`), 'Arn'] } });
  });

  it('runs one job per invocation in the re-stamper, which may re-send its job and nothing else', () => {
    const id = consumerId(template, retentionRestamper);

    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::GetAtt': [queueIdFor(template, RETENTION_QUEUE.name), 'Arn'] },
    });
    expect((template.toJSON().Resources[id] as CfnResource).Properties).toMatchObject({ Timeout: retentionRestamper.timeoutSeconds, MemorySize: retentionRestamper.memoryMb });
    expect(sendsTo(id)).toEqual([queueIdFor(template, RETENTION_QUEUE.name)]);
    expect(environmentOf(id)[RETENTION_QUEUE.urlEnv]).toEqual({ Ref: queueIdFor(template, RETENTION_QUEUE.name) });
  });

  it('serves GET /settings/retention read-only, and lets only PATCH queue re-stamp jobs', () => {
    const get = functionIdFor(template, retentionRoute('GET'));
    const patch = functionIdFor(template, retentionRoute('PATCH'));

    // Its only writes are the request budget (UpdateItem limited to rate-limit keys) and the page
    // cursor secret's one item (PutItem limited to it): least-privilege.test.ts holds both bounds.
    expect(actionsOf(roleStatements(template, get)).filter((action) => ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'sqs:SendMessage'].includes(action))).toEqual(['dynamodb:PutItem']);
    expect(environmentOf(get)[RETENTION_QUEUE.urlEnv]).toBeUndefined();
    expect(sendsTo(patch)).toEqual([queueIdFor(template, RETENTION_QUEUE.name)]);
    expect(environmentOf(patch)[RETENTION_QUEUE.urlEnv]).toEqual({ Ref: queueIdFor(template, RETENTION_QUEUE.name) });
    const queueSenders = routes.filter((route) => sendsTo(functionIdFor(template, route)).includes(queueIdFor(template, RETENTION_QUEUE.name)));
    expect(queueSenders).toEqual([retentionRoute('PATCH')]);
  });
});
