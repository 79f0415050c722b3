import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '#functions/routes';
import { INTEGRATIONS_KEY_ENV } from '#shared/adapters/crypto/integration-cipher';
import { TOOL_PROXY_FUNCTION_ENV } from '#shared/adapters/lambda/tool-proxy-client';
import { INBOUND_MAIL_ENV } from '#shared/adapters/mail/inbound-store';
import { INBOUND_MAIL_DOMAIN_ENV } from '#shared/config/inbound-mail';
import { TASK_QUEUES, taskWorker, toolProxy } from '#shared/config/topology';
import { INBOUND_MAIL_PREFIX, INBOUND_MAIL_RETENTION_DAYS, receiveMail } from '#lib/constructs/inbound-mail';
import { bundleContents } from '../../bench/bundle-contents';
import { synthGatehouse } from './synth';
import {
  actionsOf,
  consumerId,
  declaredFunctions,
  functionIdFor,
  getAttTarget,
  idAtPath,
  integrationsKeyId,
  methodFor,
  queueIdFor,
  receiveMailId,
  roleStatements,
  type CfnResource,
  type DeclaredFunction,
  type PolicyStatement,
} from './template-queries';

/** The encryption context every integration ciphertext carries; KMS grants hold for it only. */
const CREDENTIALS_ONLY = { StringEquals: { 'kms:EncryptionContext:purpose': 'integration-credentials' } };
const CONNECTING_ROUTES = ['PATCH /integrations/{integration_id}', 'POST /integrations'];
const SLACK_ROUTES = ['POST /integrations/{integration_id}/slack/events', 'POST /integrations/{integration_id}/slack/interactions'];
// A custom agent's worker calls read tools through POST /tasks/{task_id}/tool-calls.
const PROXY_INVOKERS = [...SLACK_ROUTES, 'POST /integrations/{integration_id}/test', 'POST /tasks/{task_id}/tool-calls', taskWorker.name];
const SES = 'ses.amazonaws.com';
const RULE_SET_NAME = 'Gatehouse-inbound-mail';
/** The receipt rule's ARN, built from its fixed names (a reference to the rule would be a cycle). */
const RULE_ARN = {
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:receipt-rule-set/${RULE_SET_NAME}:receipt-rule/deliver-to-gatehouse`]],
};
const routeNamed = (name: string): RouteDefinition => {
  const route = routes.find((candidate) => `${candidate.method} ${candidate.path}` === name);
  if (!route) throw new Error(`no route ${name}`);
  return route;
};
const flagged = ({ access }: DeclaredFunction, flag: string) => Object.entries(access).some(([name, value]) => name === flag && value === true);

describe('integrations and inbound mail on AWS', () => {
  let template: Template;
  let functions: DeclaredFunction[];
  const resource = (type: string, id: string) => template.findResources(type)[id] as CfnResource;
  const variablesOf = (id: string): Record<string, unknown> => resource('AWS::Lambda::Function', id).Properties.Environment.Variables;
  const roleOf = (id: string) => getAttTarget(resource('AWS::Lambda::Function', id).Properties.Role);
  const idOf = (name: string) => functions.find((fn) => fn.name === name)!.id;
  /** Every statement of every IAM policy of the template (functions' roles or any other) whose resource is `targetId`, with its role. */
  const statementsOn = (targetId: string) =>
    (Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[]).flatMap(({ Properties }) =>
      (Properties.PolicyDocument.Statement as PolicyStatement[])
        .filter((statement) => [statement.Resource].flat().map(getAttTarget).includes(targetId))
        .flatMap((statement) => (Properties.Roles as { Ref: string }[]).map((role) => ({ role: role.Ref, statement }))),
    );
  const byRole = (a: { role?: string }, b: { role?: string }) => (a.role ?? '').localeCompare(b.role ?? '');
  const bucketId = () => idAtPath(template, 'AWS::S3::Bucket', 'Gatehouse/InboundMail/Messages/Resource');

  beforeAll(() => {
    template = synthGatehouse();
    functions = declaredFunctions(template);
  }, 120_000);

  describe('integrations key', () => {
    it('lets exactly the routes that connect generate data keys, and exactly the tool proxy decrypt: one action each, for integration credentials only', () => {
      const key = integrationsKeyId(template);
      const onKey = (action: string) => ({ Effect: 'Allow', Action: action, Resource: { 'Fn::GetAtt': [key, 'Arn'] }, Condition: CREDENTIALS_ONLY });

      expect(functions.filter((fn) => flagged(fn, 'encryptCredentials')).map(({ name }) => name).sort()).toEqual(CONNECTING_ROUTES);
      expect(functions.filter((fn) => flagged(fn, 'decryptCredentials')).map(({ name }) => name)).toEqual([toolProxy.name]);
      // Across every policy of the template: no other role has any action on the key.
      expect(statementsOn(key).sort(byRole)).toEqual(
        [
          ...CONNECTING_ROUTES.map((name) => ({ role: roleOf(idOf(name)), statement: onKey('kms:GenerateDataKey') })),
          { role: roleOf(consumerId(template, toolProxy)), statement: onKey('kms:Decrypt') },
        ].sort(byRole),
      );
    });

    it('names the key by its ARN to the functions that use it', () => {
      for (const name of [...CONNECTING_ROUTES, toolProxy.name]) {
        expect(variablesOf(idOf(name)), name).toMatchObject({ SECRET_CIPHER_BACKEND: 'kms', [INTEGRATIONS_KEY_ENV]: { 'Fn::GetAtt': [integrationsKeyId(template), 'Arn'] } });
      }
    });
  });

  describe('tool proxy invocation', () => {
    it('lets exactly the task worker, the test route and the two Slack routes invoke the tool proxy, on its ARN only', () => {
      const proxy = consumerId(template, toolProxy);
      const invoke = { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [proxy, 'Arn'] } };

      expect(functions.filter((fn) => flagged(fn, 'invokeToolProxy')).map(({ name }) => name).sort()).toEqual([...PROXY_INVOKERS].sort());
      expect(statementsOn(proxy).sort(byRole)).toEqual(PROXY_INVOKERS.map((name) => ({ role: roleOf(idOf(name)), statement: invoke })).sort(byRole));
    });

    it('gives the proxy’s name exactly to its invokers, and no resource policy lets anything else invoke it', () => {
      const proxy = consumerId(template, toolProxy);
      const permissions = (Object.values(template.findResources('AWS::Lambda::Permission')) as CfnResource[]).filter(({ Properties }) => getAttTarget(Properties.FunctionName) === proxy || Properties.FunctionName?.Ref === proxy);

      expect(permissions).toEqual([]);
      for (const fn of functions) {
        expect(variablesOf(fn.id)[TOOL_PROXY_FUNCTION_ENV], fn.name).toEqual(PROXY_INVOKERS.includes(fn.name) ? { Ref: proxy } : undefined);
      }
    });
  });

  describe('Slack callbacks', () => {
    it.each(SLACK_ROUTES)('serves %s without an authorizer: Slack sends no API key, the tool proxy checks its signature', (name) => {
      const route = routeNamed(name);
      const method = methodFor(template, route);

      expect(route.auth).toBe('none');
      expect(method.Properties.AuthorizationType).toBe('NONE');
      expect(method.Properties.AuthorizerId).toBeUndefined();
    });

    it.each(SLACK_ROUTES)('gives %s nothing but the tool proxy: no table, no queue, no key', (name) => {
      const actions = actionsOf(roleStatements(template, functionIdFor(template, routeNamed(name))));

      expect(actions.filter((action) => !action.startsWith('logs:') && !action.startsWith('xray:'))).toEqual(['lambda:InvokeFunction']);
    });

    it('keeps every other integrations route behind the authorizer', () => {
      const others = routes.filter((route) => route.path.startsWith('/integrations') && !SLACK_ROUTES.includes(`${route.method} ${route.path}`));

      expect(others.length).toBeGreaterThan(0);
      for (const route of others) expect(methodFor(template, route).Properties, `${route.method} ${route.path}`).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: expect.anything() });
    });
  });

  describe('SES receiving', () => {
    it('takes the domain as InboundMailDomain: a lowercase domain name, with a default', () => {
      const parameter = template.findParameters('InboundMailDomain').InboundMailDomain;
      const pattern = new RegExp(`^(?:${parameter.AllowedPattern})$`);

      expect(parameter).toMatchObject({ Type: 'String', Default: 'inbound.example.com' });
      expect(parameter.Description).toMatch(/inbound-smtp\.<region>\.amazonaws\.com/);
      for (const valid of ['inbound.example.com', 'mail.example.co.uk', 'x-1.example.org']) expect(pattern.test(valid), valid).toBe(true);
      for (const invalid of ['example', '*.example.com', 'a@example.com', 'Inbound.Example.com', '-x.example.com', 'example.com.', '']) expect(pattern.test(invalid), invalid).toBe(false);
    });

    it('has one rule set with one rule: mail to the domain, scanned, over TLS only, stored in S3 and then handed to receive-mail', () => {
      const ruleSets = template.findResources('AWS::SES::ReceiptRuleSet');
      const rules = Object.values(template.findResources('AWS::SES::ReceiptRule')) as CfnResource[];

      expect(Object.values(ruleSets).map(({ Properties }) => Properties.RuleSetName)).toEqual([RULE_SET_NAME]);
      expect(rules).toHaveLength(1);
      expect(rules[0].Properties).toEqual({
        RuleSetName: { Ref: Object.keys(ruleSets)[0] },
        Rule: {
          Name: 'deliver-to-gatehouse',
          Enabled: true,
          Recipients: [{ Ref: 'InboundMailDomain' }],
          ScanEnabled: true,
          TlsPolicy: 'Require',
          // In this order: the function reads the message the S3 action stored.
          Actions: [
            { S3Action: { BucketName: { Ref: bucketId() }, ObjectKeyPrefix: INBOUND_MAIL_PREFIX } },
            { LambdaAction: { FunctionArn: { 'Fn::GetAtt': [receiveMailId(template), 'Arn'] }, InvocationType: 'Event' } },
          ],
        },
      });
    });

    it('creates the rule after the permissions SES checks when the rule is created', () => {
      const [rule] = Object.values(template.findResources('AWS::SES::ReceiptRule')) as (CfnResource & { DependsOn?: string[] })[];

      expect(rule.DependsOn?.sort()).toEqual([
        idAtPath(template, 'AWS::S3::BucketPolicy', 'Gatehouse/InboundMail/Messages/Policy/Resource'),
        idAtPath(template, 'AWS::Lambda::Permission', 'Gatehouse/InboundMail/ReceiveMail/AllowSes'),
      ].sort());
    });

    it('stores mail in a private, encrypted bucket that expires it, kept if the stack goes', () => {
      const bucket = resource('AWS::S3::Bucket', bucketId()) as CfnResource & { UpdateReplacePolicy?: string };

      expect(bucket.Properties).toEqual({
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        LifecycleConfiguration: { Rules: [{ Prefix: INBOUND_MAIL_PREFIX, ExpirationInDays: INBOUND_MAIL_RETENTION_DAYS, Status: 'Enabled' }] },
      });
      expect([bucket.DeletionPolicy, bucket.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
    });

    it('lets SES put objects under the prefix for this account’s rule only, and nobody in without TLS', () => {
      const policies = (Object.values(template.findResources('AWS::S3::BucketPolicy')) as CfnResource[]).filter(({ Properties }) => Properties.Bucket.Ref === bucketId());
      const bucketArn = { 'Fn::GetAtt': [bucketId(), 'Arn'] };

      expect(policies).toHaveLength(1);
      expect(policies[0].Properties.PolicyDocument.Statement).toEqual([
        {
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 's3:*',
          Resource: [bucketArn, { 'Fn::Join': ['', [bucketArn, '/*']] }],
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
        {
          Effect: 'Allow',
          Principal: { Service: SES },
          Action: 's3:PutObject',
          Resource: { 'Fn::Join': ['', [bucketArn, `/${INBOUND_MAIL_PREFIX}*`]] },
          Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': RULE_ARN } },
        },
      ]);
    });

    it('lets SES invoke receive-mail for this account’s rule only', () => {
      const permissions = (Object.values(template.findResources('AWS::Lambda::Permission')) as CfnResource[]).filter(({ Properties }) => getAttTarget(Properties.FunctionName) === receiveMailId(template));

      expect(permissions.map(({ Properties }) => Properties)).toEqual([
        { Action: 'lambda:InvokeFunction', FunctionName: { 'Fn::GetAtt': [receiveMailId(template), 'Arn'] }, Principal: SES, SourceAccount: { Ref: 'AWS::AccountId' }, SourceArn: RULE_ARN },
      ]);
    });

    it('lets receive-mail read stored messages only (s3:GetObject under the prefix), and write the table and the task queues', () => {
      const id = receiveMailId(template);
      const statements = roleStatements(template, id);
      const sendTargets = statements.filter((statement) => actionsOf([statement]).includes('sqs:SendMessage')).flatMap(({ Resource }) => [Resource].flat().map(getAttTarget));

      expect(receiveMail.access).toEqual({ table: 'read_write', dispatchTasks: true, inboundMail: true });
      expect(statements.filter((statement) => actionsOf([statement]).some((action) => action.startsWith('s3:')))).toEqual([
        { Effect: 'Allow', Action: 's3:GetObject', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId(), 'Arn'] }, `/${INBOUND_MAIL_PREFIX}*`]] } },
      ]);
      const failures = idAtPath(template, 'AWS::SQS::Queue', 'Gatehouse/InboundMail/Failures/Resource');
      expect(sendTargets.sort()).toEqual([...Object.values(TASK_QUEUES).map((queue) => queueIdFor(template, queue.name)), failures].sort());
      expect(actionsOf(statements)).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
      expect(variablesOf(id)).toMatchObject({ [INBOUND_MAIL_ENV.bucket]: { Ref: bucketId() }, [INBOUND_MAIL_ENV.prefix]: INBOUND_MAIL_PREFIX });
      expect(resource('AWS::Lambda::Function', id).Properties).toMatchObject({ Timeout: receiveMail.timeoutSeconds, MemorySize: receiveMail.memoryMb });
    });

    it('gives the inbound domain exactly to receive-mail and the routes that create or change triggers', () => {
      const withDomain = functions.filter(({ id }) => variablesOf(id)[INBOUND_MAIL_DOMAIN_ENV] !== undefined);

      expect(functions.filter((fn) => flagged(fn, 'inboundMail')).map(({ name }) => name).sort()).toEqual(['PATCH /triggers/{trigger_id}', 'POST /triggers', receiveMail.name].sort());
      expect(withDomain.map(({ name }) => name).sort()).toEqual(['PATCH /triggers/{trigger_id}', 'POST /triggers', receiveMail.name].sort());
      for (const { name, id } of withDomain) expect(variablesOf(id)[INBOUND_MAIL_DOMAIN_ENV], name).toEqual({ Ref: 'InboundMailDomain' });
    });

    it('outputs the command that makes the rule set active, which CloudFormation cannot do', () => {
      const output = template.findOutputs('ActivateRuleSetCommand').ActivateRuleSetCommand;

      expect(output.Value).toEqual({
        'Fn::Join': ['', ['aws ses set-active-receipt-rule-set --rule-set-name ', { Ref: Object.keys(template.findResources('AWS::SES::ReceiptRuleSet'))[0] }, ' --region ', { Ref: 'AWS::Region' }]],
      });
    });
  });

  describe('bundle sizes', () => {
    // Unsplit bundles, everything each can load: Lambda parses what a cold start imports, so a
    // provider SDK or parser pulled in whole shows here first. Today about 1.3 MB and 1.9 MB.
    it('keeps the tool proxy under 1.6 MB and receive-mail under 2.3 MB of JavaScript', async () => {
      const [proxy, receiver] = await bundleContents([
        { handler: toolProxy.handler, kind: 'consumer', memoryMb: toolProxy.memoryMb, access: toolProxy.access, label: toolProxy.name },
        { handler: receiveMail.handler, kind: 'consumer', memoryMb: receiveMail.memoryMb, access: receiveMail.access, label: receiveMail.name },
      ]);

      expect(proxy.bytes).toBeLessThan(1.6 * 1024 * 1024);
      expect(receiver.bytes).toBeLessThan(2.3 * 1024 * 1024);
    }, 120_000);
  });
});
