import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumers, toolProxy } from '#shared/config/topology';
import { synthGatehouse } from './synth';
import { actionsOf, consumerId, dataKeyId, declaredFunctions, fanOutId, getAttTarget, idAtPath, integrationsKeyId, roleStatements, secretsKeyId, tableId, type CfnResource, type DeclaredFunction, type PolicyStatement } from './template-queries';

const DISPATCH_FLAGS = ['dispatchTasks', 'dispatchToolCalls', 'dispatchDeliveries', 'dispatchScans'] as const;
/** What reading the table or receiving from a queue needs on the data key. */
const READ_ONLY = ['kms:Decrypt', 'kms:DescribeKey'];
/** The statement letting a table user create and unwrap the page cursor secret (its own encryption context only). */
const isPageCursorGrant = (statement: PolicyStatement & { Condition?: unknown }) => JSON.stringify(statement.Condition ?? null) === JSON.stringify({ StringEquals: { 'kms:EncryptionContext:purpose': 'page-cursor' } });

describe('customer-managed keys', () => {
  let template: Template;
  let dataKey: string;
  let functions: DeclaredFunction[];
  /** The KMS actions a function's role has on one key. */
  const kmsActionsOn = (functionId: string, keyId: string) =>
    [...new Set(actionsOf(roleStatements(template, functionId).filter((statement) => !isPageCursorGrant(statement) && [statement.Resource].flat().map(getAttTarget).includes(keyId))))].filter((action) => action.startsWith('kms:')).sort();
  const dispatches = ({ access }: DeclaredFunction) => DISPATCH_FLAGS.some((flag) => flag in access && Boolean(access[flag as keyof typeof access]));

  beforeAll(() => {
    template = synthGatehouse();
    dataKey = dataKeyId(template);
    functions = declaredFunctions(template);
  }, 120_000);

  it('are four, each rotating yearly, retained with the stack, under a per-stack alias: data, alarms, webhook secrets, integrations', () => {
    const keys = template.findResources('AWS::KMS::Key') as Record<string, CfnResource & { UpdateReplacePolicy?: string }>;
    const aliases = (Object.values(template.findResources('AWS::KMS::Alias')) as CfnResource[]).map(({ Properties }) => [Properties.AliasName, getAttTarget(Properties.TargetKeyId)]);

    expect(Object.keys(keys)).toHaveLength(4);
    for (const [id, key] of Object.entries(keys)) {
      expect(key.Properties.EnableKeyRotation, id).toBe(true);
      expect([key.DeletionPolicy, key.UpdateReplacePolicy], id).toEqual(['Retain', 'Retain']);
    }
    expect(new Map(aliases as [string, string][])).toEqual(
      new Map([
        ['alias/Gatehouse/data', dataKey],
        ['alias/Gatehouse/alarms', idAtPath(template, 'AWS::KMS::Key', 'Gatehouse/Keys/AlarmsKey/Resource')],
        ['alias/Gatehouse/webhook-secrets', secretsKeyId(template)],
        ['alias/Gatehouse/integrations', integrationsKeyId(template)],
      ]),
    );
  });

  it('encrypt the table (and so its stream) with the data key', () => {
    const table = template.findResources('AWS::DynamoDB::GlobalTable')[tableId(template)] as CfnResource;

    expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
    expect(table.Properties.Replicas).toHaveLength(1);
    expect(table.Properties.Replicas[0].SSESpecification).toEqual({ KMSMasterKeyId: { 'Fn::GetAtt': [dataKey, 'Arn'] } });
  });

  it('encrypt every queue and dead-letter queue, the fan-out failure queue included, with the data key', () => {
    const queues = Object.entries(template.findResources('AWS::SQS::Queue')) as [string, CfnResource][];

    expect(queues.map(([id]) => id)).toContain(idAtPath(template, 'AWS::SQS::Queue', 'Gatehouse/Webhooks/FanOutFailures/Resource'));
    for (const [id, queue] of queues) expect(queue.Properties.KmsMasterKeyId, id).toEqual({ 'Fn::GetAtt': [dataKey, 'Arn'] });
  });

  it('give a function nothing on the data key when it touches neither the table nor a queue', () => {
    const untouched = functions.filter((fn) => fn.access.table === 'none' && !dispatches(fn));

    expect(untouched.length).toBeGreaterThan(0);
    for (const { name, id } of untouched) expect(kmsActionsOn(id, dataKey), name).toEqual([]);
  });

  it('let a function that only reads the table decrypt with the data key, never encrypt', () => {
    const consumerIds = new Set(consumers.map((consumer) => consumerId(template, consumer)));
    const readers = functions.filter((fn) => fn.access.table === 'read' && !dispatches(fn) && !consumerIds.has(fn.id));

    expect(readers.length).toBeGreaterThan(0);
    for (const { name, id } of readers) expect(kmsActionsOn(id, dataKey), name).toEqual(READ_ONLY);
  });

  it('let every table user create and unwrap the page cursor secret under the data key, for that encryption context only', () => {
    const tableUsers = functions.filter((fn) => fn.access.table !== 'none');

    expect(tableUsers.length).toBeGreaterThan(0);
    for (const { name, id } of tableUsers) {
      const grants = roleStatements(template, id).filter(isPageCursorGrant);
      expect(grants.map((statement) => [actionsOf([statement]).sort(), [statement.Resource].flat().map(getAttTarget)]), name).toEqual([[['kms:Decrypt', 'kms:GenerateDataKeyWithoutPlaintext'], [dataKey]]]);
    }
  });

  it('let every table writer and queue producer generate data keys and encrypt with the data key', () => {
    const writers = functions.filter((fn) => fn.access.table === 'read_write' || dispatches(fn));

    expect(writers.length).toBeGreaterThan(0);
    for (const { name, id } of writers) expect(kmsActionsOn(id, dataKey), name).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey*']));
  });

  it('let every queue consumer and the stream reader decrypt with the data key', () => {
    for (const id of [...consumers.map((consumer) => consumerId(template, consumer)), fanOutId(template)]) expect(kmsActionsOn(id, dataKey), id).toContain('kms:Decrypt');
  });

  it('let only the routes that connect integrations generate data keys with the integrations key, and only the tool proxy decrypt with it', () => {
    const integrationsKey = integrationsKeyId(template);
    const flagged = (fn: DeclaredFunction, flag: 'encryptCredentials' | 'decryptCredentials') => flag in fn.access && Boolean(fn.access[flag as keyof typeof fn.access]);

    expect(functions.filter((fn) => flagged(fn, 'encryptCredentials')).map(({ name }) => name).sort()).toEqual(['PATCH /integrations/{integration_id}', 'POST /integrations']);
    expect(functions.filter((fn) => flagged(fn, 'decryptCredentials')).map(({ name }) => name)).toEqual([toolProxy.name]);
    for (const fn of functions) {
      const expected = [...(flagged(fn, 'decryptCredentials') ? ['kms:Decrypt'] : []), ...(flagged(fn, 'encryptCredentials') ? ['kms:GenerateDataKey'] : [])];
      expect(kmsActionsOn(fn.id, integrationsKey), fn.name).toEqual(expected);
    }
  });

  it('appear in IAM policies only by their own ARN, never as "*", and only the data, secrets and integrations keys do', () => {
    const kmsStatements = (Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[])
      .flatMap(({ Properties }) => Properties.PolicyDocument.Statement as PolicyStatement[])
      .filter((statement) => actionsOf([statement]).some((action) => action.startsWith('kms:')));

    expect(kmsStatements.length).toBeGreaterThan(0);
    for (const { Resource } of kmsStatements) {
      for (const resource of [Resource].flat()) expect([dataKey, secretsKeyId(template), integrationsKeyId(template)], JSON.stringify(resource)).toContain(getAttTarget(resource));
    }
  });
});
