import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATIONS_KEY_ENV } from '#shared/adapters/crypto/integration-cipher';
import { SECRET_CIPHER_ENV } from '#shared/adapters/crypto/secret-cipher';
import { VISIBILITY_TIMEOUT_FACTOR, WEBHOOK_DELIVERY_QUEUE, eventFanOut, visibilityTimeoutSeconds, webhookDeliverer } from '#shared/config/topology';
import { synthGatehouse } from './synth';
import {
  actionsOf,
  consumerId,
  dataKeyId,
  declaredFunctions,
  fanOutId,
  getAttTarget,
  idAtPath,
  integrationsKeyId,
  queueIdFor,
  roleStatements,
  secretsKeyId,
  streamMappings,
  tableId,
  type CfnResource,
  type DeclaredFunction,
  type PolicyStatement,
} from './template-queries';

const FOURTEEN_DAYS = 14 * 24 * 60 * 60;
const ONE_DAY = 24 * 60 * 60;
const DLQ_NAME = `${WEBHOOK_DELIVERY_QUEUE.name}-dlq`;
const SEND = ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'];
const STREAM_READ = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];
const ENCRYPTING_ROUTES = ['POST /webhooks', 'POST /webhooks/{webhook_id}/rotate-secret'];

describe('webhooks', () => {
  let template: Template;
  let functions: DeclaredFunction[];
  let keyId: string;
  const resource = (type: string, id: string) => template.findResources(type)[id] as CfnResource;
  const variablesOf = (id: string): Record<string, unknown> => resource('AWS::Lambda::Function', id).Properties.Environment.Variables;
  const mappingsOf = (id: string) => (Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as CfnResource[]).filter(({ Properties }) => Properties.FunctionName.Ref === id);
  /** The queues a function's role may send to, by logical id. */
  const sendTargets = (id: string) =>
    roleStatements(template, id)
      .filter((statement) => actionsOf([statement]).includes('sqs:SendMessage'))
      .flatMap(({ Resource }) => [Resource].flat().map(getAttTarget));
  /** Every statement on the secrets key of every IAM policy in the template (functions' roles or any other), with its role. */
  const secretsKeyStatements = () =>
    (Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[]).flatMap(({ Properties }) =>
      (Properties.PolicyDocument.Statement as PolicyStatement[])
        .filter((statement) => [statement.Resource].flat().map(getAttTarget).includes(keyId))
        .flatMap((statement) => (Properties.Roles as { Ref: string }[]).map((role) => ({ role: role.Ref, statement }))),
    );
  const roleOf = (id: string) => getAttTarget(resource('AWS::Lambda::Function', id).Properties.Role);
  const expectSecureQueue = (id: string) => {
    expect(resource('AWS::SQS::Queue', id).Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [dataKeyId(template), 'Arn'] });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: id }],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  };

  beforeAll(() => {
    template = synthGatehouse();
    functions = declaredFunctions(template);
    keyId = secretsKeyId(template);
  }, 120_000);

  describe('fan-out on the table stream', () => {
    let mapping: CfnResource;
    beforeAll(() => {
      const mappings = streamMappings(template).filter(({ Properties }) => Properties.FunctionName.Ref === fanOutId(template));
      expect(mappings).toHaveLength(1);
      mapping = mappings[0];
    });

    it('reads the table stream beside the event triggers only (two readers per shard at most), and runs the eventFanOut handler sized from its declaration', () => {
      expect(streamMappings(template)).toHaveLength(2);
      const fn = resource('AWS::Lambda::Function', fanOutId(template));

      expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId(template), 'StreamArn'] });
      expect(fn.Metadata?.['aws:cdk:path']).toBe('Gatehouse/Webhooks/FanOutEvents/Resource');
      expect(fn.Properties).toMatchObject({ Timeout: eventFanOut.timeoutSeconds, MemorySize: eventFanOut.memoryMb });
    });

    it('filters to inserted event items, exactly', () => {
      expect(eventFanOut.filter).toEqual({ eventName: 'INSERT', entity: 'event' });
      expect(mapping.Properties.FilterCriteria.Filters).toHaveLength(1);
      expect(JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern)).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['event'] } } } });
    });

    it('starts at TRIM_HORIZON, in batches of the declared size, with partial batch failures', () => {
      expect(mapping.Properties).toMatchObject({
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: eventFanOut.batchSize,
        MaximumBatchingWindowInSeconds: eventFanOut.maxBatchingWindowSeconds,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    });

    it('bisects failing batches, retries 10 times for at most the 24 h the stream keeps records', () => {
      expect(mapping.Properties).toMatchObject({ BisectBatchOnFunctionError: true, MaximumRetryAttempts: 10, MaximumRecordAgeInSeconds: ONE_DAY });
    });

    it('sends batches it gives up on to its own failure queue, encrypted with the data key, TLS only, kept 14 days', () => {
      const failures = idAtPath(template, 'AWS::SQS::Queue', 'Gatehouse/Webhooks/FanOutFailures/Resource');

      expect(mapping.Properties.DestinationConfig).toEqual({ OnFailure: { Destination: { 'Fn::GetAtt': [failures, 'Arn'] } } });
      expect(resource('AWS::SQS::Queue', failures).Properties.MessageRetentionPeriod).toBe(FOURTEEN_DAYS);
      expectSecureQueue(failures);
      // Only Lambda (with the fan-out's role) writes there; it is nobody's event source.
      expect(functions.filter(({ id }) => sendTargets(id).includes(failures)).map(({ name }) => name)).toEqual([eventFanOut.name]);
      expect(Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter((other) => getAttTarget(other.Properties.EventSourceArn) === failures)).toEqual([]);
    });

    it('reads the stream on its ARN only, and has exactly the access eventFanOut declares', () => {
      const id = fanOutId(template);
      const statements = roleStatements(template, id);
      const streamStatements = statements.filter((statement) => actionsOf([statement]).includes('dynamodb:GetRecords') && JSON.stringify(statement.Resource).includes('StreamArn'));

      expect(eventFanOut.access).toEqual({ table: 'read_write', dispatchDeliveries: true });
      expect(streamStatements).toEqual([{ Effect: 'Allow', Action: STREAM_READ, Resource: { 'Fn::GetAtt': [tableId(template), 'StreamArn'] } }]);
      expect(actionsOf(statements)).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query']));
      // The stream and the delivery queue are under the data key; the secrets key is not its business.
      expect(statements.filter(({ Resource }) => [Resource].flat().map(getAttTarget).includes(keyId))).toEqual([]);
      expect(variablesOf(id)).toMatchObject({ TABLE_NAME: { Ref: tableId(template) }, [WEBHOOK_DELIVERY_QUEUE.urlEnv]: { Ref: queueIdFor(template, WEBHOOK_DELIVERY_QUEUE.name) } });
    });
  });

  describe('delivery queue', () => {
    it('redrives to its own dead-letter queue after maxReceiveCount, which keeps dead letters 14 days', () => {
      const queue = resource('AWS::SQS::Queue', queueIdFor(template, WEBHOOK_DELIVERY_QUEUE.name));

      expect(queue.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [queueIdFor(template, DLQ_NAME), 'Arn'] },
        maxReceiveCount: WEBHOOK_DELIVERY_QUEUE.maxReceiveCount,
      });
      expect(resource('AWS::SQS::Queue', queueIdFor(template, DLQ_NAME)).Properties.MessageRetentionPeriod).toBe(FOURTEEN_DAYS);
    });

    it('hides a received message for at least six deliverer timeouts', () => {
      const queue = resource('AWS::SQS::Queue', queueIdFor(template, WEBHOOK_DELIVERY_QUEUE.name));

      expect(queue.Properties.VisibilityTimeout).toBe(visibilityTimeoutSeconds(WEBHOOK_DELIVERY_QUEUE.name));
      expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUT_FACTOR * webhookDeliverer.timeoutSeconds);
    });

    it.each([WEBHOOK_DELIVERY_QUEUE.name, DLQ_NAME])('encrypts %s with the data key and denies access without TLS', (name) => {
      expectSecureQueue(queueIdFor(template, name));
    });

    it('gives its URL and send permission exactly to the functions whose access says dispatchDeliveries', () => {
      const queue = queueIdFor(template, WEBHOOK_DELIVERY_QUEUE.name);
      const dispatchers = functions.filter(({ access }) => access.dispatchDeliveries).map(({ name }) => name);

      expect(dispatchers.sort()).toEqual(['POST /webhooks/{webhook_id}/deliveries/{delivery_id}/resend', 'POST /webhooks/{webhook_id}/recover', eventFanOut.name, webhookDeliverer.name].sort());
      for (const { name, id, access } of functions) {
        expect(sendTargets(id).includes(queue), name).toBe(Boolean(access.dispatchDeliveries));
        if (access.dispatchDeliveries) expect(variablesOf(id)[WEBHOOK_DELIVERY_QUEUE.urlEnv], name).toEqual({ Ref: queue });
        else expect(variablesOf(id)[WEBHOOK_DELIVERY_QUEUE.urlEnv], name).toBeUndefined();
      }
    });

    it('lets only the deliverer dead-letter deliveries itself: the DLQ URL and send on the DLQ, no receive', () => {
      const deliverer = consumerId(template, webhookDeliverer);
      const dlq = queueIdFor(template, DLQ_NAME);
      const dlqStatements = roleStatements(template, deliverer).filter(({ Resource }) => [Resource].flat().map(getAttTarget).includes(dlq));

      expect(WEBHOOK_DELIVERY_QUEUE.deadLetterUrlEnv).toBe('WEBHOOK_DELIVERY_DLQ_URL');
      expect(variablesOf(deliverer)[WEBHOOK_DELIVERY_QUEUE.deadLetterUrlEnv!]).toEqual({ Ref: dlq });
      expect(dlqStatements).toEqual([{ Effect: 'Allow', Action: SEND, Resource: { 'Fn::GetAtt': [dlq, 'Arn'] } }]);
      for (const { name, id } of functions.filter(({ id }) => id !== deliverer)) {
        expect(variablesOf(id)[WEBHOOK_DELIVERY_QUEUE.deadLetterUrlEnv!], name).toBeUndefined();
        expect(sendTargets(id), name).not.toContain(dlq);
      }
    });
  });

  describe('deliverer', () => {
    it('consumes the delivery queue, and only it, with its batch size and partial batch failures', () => {
      const mappings = mappingsOf(consumerId(template, webhookDeliverer));

      expect(mappings).toHaveLength(1);
      expect(mappings[0].Properties).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [queueIdFor(template, WEBHOOK_DELIVERY_QUEUE.name), 'Arn'] },
        BatchSize: webhookDeliverer.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    });

    it('is sized from its consumer definition and runs its handler', () => {
      const fn = resource('AWS::Lambda::Function', consumerId(template, webhookDeliverer));

      expect(fn.Properties).toMatchObject({ Timeout: webhookDeliverer.timeoutSeconds, MemorySize: webhookDeliverer.memoryMb });
      expect(fn.Metadata?.['aws:cdk:path']).toBe('Gatehouse/Tasks/WebhookDeliverer/Resource');
    });
  });

  describe('secrets key', () => {
    it('is a customer-managed key with yearly rotation, retained when the stack or the resource goes away', () => {
      const key = resource('AWS::KMS::Key', keyId) as CfnResource & { UpdateReplacePolicy?: string };

      expect(key.Properties.EnableKeyRotation).toBe(true);
      expect(key.DeletionPolicy).toBe('Retain');
      expect(key.UpdateReplacePolicy).toBe('Retain');
    });

    it('has a per-stack alias', () => {
      template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/Gatehouse/webhook-secrets', TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    });

    it('lets only the create-webhook and rotate-secret functions encrypt, and only the deliverer decrypt: one action each, on the key only', () => {
      const encryptors = functions.filter(({ access }) => 'encryptSecrets' in access && access.encryptSecrets);
      const decryptors = functions.filter(({ access }) => 'decryptSecrets' in access && access.decryptSecrets);
      const onKey = (action: string) => ({ Effect: 'Allow', Action: action, Resource: { 'Fn::GetAtt': [keyId, 'Arn'] } });

      expect(encryptors.map(({ name }) => name).sort()).toEqual(ENCRYPTING_ROUTES);
      expect(decryptors.map(({ name }) => name)).toEqual([webhookDeliverer.name]);
      // Across every policy of the template: no other role has any action on the key, these have exactly one.
      expect(secretsKeyStatements().sort((a, b) => a.role.localeCompare(b.role))).toEqual(
        [...encryptors.map(({ id }) => ({ role: roleOf(id), statement: onKey('kms:Encrypt') })), ...decryptors.map(({ id }) => ({ role: roleOf(id), statement: onKey('kms:Decrypt') }))].sort((a, b) =>
          (a.role ?? '').localeCompare(b.role ?? ''),
        ),
      );
    });

    it('gives the KMS cipher environment exactly to the functions that use a key, and each only the ARN of the key it may use', () => {
      const flagged = (access: DeclaredFunction['access'], flag: string) => Object.entries(access).some(([name, value]) => name === flag && value === true);
      const ciphers = functions.map(({ name, id, access }) => ({
        name,
        variables: variablesOf(id),
        // Webhook signing secrets (the secrets key) and integration credentials (the integrations key) share the backend switch.
        secrets: flagged(access, 'encryptSecrets') || flagged(access, 'decryptSecrets'),
        credentials: flagged(access, 'encryptCredentials') || flagged(access, 'decryptCredentials'),
      }));

      expect(ciphers.filter(({ credentials }) => credentials).length).toBeGreaterThan(0);
      for (const { name, variables, secrets, credentials } of ciphers) {
        expect(variables[SECRET_CIPHER_ENV.backend], name).toBe(secrets || credentials ? 'kms' : undefined);
        expect(variables[SECRET_CIPHER_ENV.kmsKeyId], name).toEqual(secrets ? { 'Fn::GetAtt': [keyId, 'Arn'] } : undefined);
        expect(variables[INTEGRATIONS_KEY_ENV], name).toEqual(credentials ? { 'Fn::GetAtt': [integrationsKeyId(template), 'Arn'] } : undefined);
        // The local cipher's key never reaches AWS.
        expect(variables[SECRET_CIPHER_ENV.localKey], name).toBeUndefined();
      }
    });
  });
});
