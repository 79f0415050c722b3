import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { allQueues } from '#shared/config/topology';
import { METRICS, METRICS_NAMESPACE, SERVICE_DIMENSION, SERVICE_NAME } from '#shared/observability/metric-catalog';
import { ALARM_THRESHOLDS, oldestMessageAgeThresholdSeconds } from '#lib/constructs/monitoring';
import { GatehouseStack } from '#lib/stack';
import { synthGatehouse, synthGatehouseTemplates, TEST_DASHBOARD_SITE } from './synth';
import { eventTriggerConsumerId, fanOutId, idAtPath, queueIdFor, type CfnResource } from './template-queries';

interface MetricRef {
  namespace: string;
  name: string;
  dimensions: Record<string, unknown>;
  stat?: string;
}

/** The metrics an alarm reads, whether it watches one metric or a math expression over several. */
function alarmMetrics(alarm: CfnResource): MetricRef[] {
  const { Properties } = alarm;
  const dimensions = (list: { Name: string; Value: unknown }[] = []) => Object.fromEntries(list.map(({ Name, Value }) => [Name, Value]));
  if (Properties.MetricName) return [{ namespace: Properties.Namespace, name: Properties.MetricName, dimensions: dimensions(Properties.Dimensions), stat: Properties.Statistic }];
  return (Properties.Metrics as { MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] }; Stat: string } }[])
    .filter(({ MetricStat }) => MetricStat)
    .map(({ MetricStat }) => ({ namespace: MetricStat!.Metric.Namespace, name: MetricStat!.Metric.MetricName, dimensions: dimensions(MetricStat!.Metric.Dimensions), stat: MetricStat!.Stat }));
}

/** The expression an alarm evaluates, if it is a metric math alarm. */
function expressionOf(alarm: CfnResource): string | undefined {
  return (alarm.Properties.Metrics as { Expression?: string; ReturnData?: boolean }[] | undefined)?.find(({ ReturnData }) => ReturnData !== false)?.Expression;
}

describe('monitoring', () => {
  let template: Template;
  let alarms: CfnResource[];
  let topicId: string;
  const queueName = (id: string) => ({ 'Fn::GetAtt': [id, 'QueueName'] });
  /** The alarms reading `metric` with exactly these dimensions. */
  const alarmsOn = (name: string, dimensions: Record<string, unknown>) =>
    alarms.filter((alarm) => alarmMetrics(alarm).some((metric) => metric.name === name && JSON.stringify(metric.dimensions) === JSON.stringify(dimensions)));

  const functionIds = () => Object.keys(template.findResources('AWS::Lambda::Function'));

  beforeAll(() => {
    template = synthGatehouse();
    alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as CfnResource[];
    topicId = idAtPath(template, 'AWS::SNS::Topic', 'Gatehouse/Monitoring/AlarmTopic/Resource');
  }, 120_000);

  describe('alarm topic', () => {
    it('is the only topic, encrypted with the alarms key, which rotates and is not the data or secrets key', () => {
      const keyId = idAtPath(template, 'AWS::KMS::Key', 'Gatehouse/Keys/AlarmsKey/Resource');

      template.resourceCountIs('AWS::SNS::Topic', 1);
      template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
      template.hasResource('AWS::KMS::Key', { Properties: Match.objectLike({ EnableKeyRotation: true }), DeletionPolicy: 'Retain' });
      template.allResourcesProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    });

    it('denies publishing without TLS, and lets only CloudWatch alarms of this stack and account publish', () => {
      const alarmArns = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudwatch:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':alarm:Gatehouse-*']] };

      template.hasResourceProperties('AWS::SNS::TopicPolicy', {
        Topics: [{ Ref: topicId }],
        PolicyDocument: {
          Statement: [
            Match.objectLike({ Effect: 'Deny', Principal: '*', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
            Match.objectLike({
              Effect: 'Allow',
              Principal: { Service: 'cloudwatch.amazonaws.com' },
              Action: 'sns:Publish',
              Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: { 'aws:SourceArn': alarmArns } },
            }),
          ],
        },
      });
    });

    it("lets CloudWatch alarms of this stack use the topic's key, which they need to publish to an encrypted topic", () => {
      const keyId = idAtPath(template, 'AWS::KMS::Key', 'Gatehouse/Keys/AlarmsKey/Resource');
      const key = template.findResources('AWS::KMS::Key')[keyId] as CfnResource;
      const cloudWatch = (key.Properties.KeyPolicy.Statement as { Principal: { Service?: string }; Action: string[]; Condition: Record<string, unknown> }[]).filter(
        ({ Principal }) => Principal.Service === 'cloudwatch.amazonaws.com',
      );

      expect(cloudWatch).toHaveLength(1);
      expect(cloudWatch[0].Action).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
      expect(cloudWatch[0].Condition).toMatchObject({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: { 'aws:SourceArn': expect.anything() } });
      // No key protecting tenant data lets a service principal in.
      for (const path of ['Gatehouse/Keys/DataKey/Resource', 'Gatehouse/Webhooks/SecretsKey/Resource']) {
        const other = template.findResources('AWS::KMS::Key')[idAtPath(template, 'AWS::KMS::Key', path)] as CfnResource;
        expect(JSON.stringify(other.Properties.KeyPolicy), path).not.toContain('Service');
      }
    });

    it('subscribes the AlarmEmail parameter, only when it is not empty', () => {
      const parameter = template.toJSON().Parameters.AlarmEmail;
      const pattern = new RegExp(parameter.AllowedPattern);

      expect(parameter).toMatchObject({ Type: 'String', Default: '' });
      for (const valid of ['', 'ops@example.com', 'on-call+gatehouse@team.example.org']) expect(pattern.test(valid), valid).toBe(true);
      for (const invalid of ['ops', 'ops@example', 'two words@example.com', 'a@b.com, c@d.com']) expect(pattern.test(invalid), invalid).toBe(false);
      template.hasCondition('AlarmEmailGiven', { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'AlarmEmail' }, ''] }] });
      template.resourceCountIs('AWS::SNS::Subscription', 1);
      template.hasResource('AWS::SNS::Subscription', {
        Condition: 'AlarmEmailGiven',
        Properties: { Protocol: 'email', Endpoint: { Ref: 'AlarmEmail' }, TopicArn: { Ref: topicId } },
      });
      template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
    });
  });

  describe('every alarm', () => {
    it('notifies the one topic on ALARM and on OK, treats missing data as not breaching, and is named after the stack', () => {
      expect(alarms.length).toBeGreaterThan(0);
      for (const { Properties } of alarms) {
        expect(Properties.AlarmActions, Properties.AlarmName).toEqual([{ Ref: topicId }]);
        expect(Properties.OKActions, Properties.AlarmName).toEqual([{ Ref: topicId }]);
        expect(Properties.TreatMissingData, Properties.AlarmName).toBe('notBreaching');
        expect(Properties.AlarmName).toMatch(/^Gatehouse-[A-Za-z0-9_.-]+$/);
        expect(Properties.AlarmDescription).toContain('docs/operating/alarms.md');
      }
      expect(new Set(alarms.map(({ Properties }) => Properties.AlarmName)).size).toBe(alarms.length);
    });
  });

  describe('queues', () => {
    const deadLetterQueues = () => [
      ...allQueues.map(({ name }) => ({ name: `${name}-dlq`, id: queueIdFor(template, `${name}-dlq`) })),
      { name: 'event-trigger-failures', id: idAtPath(template, 'AWS::SQS::Queue', 'Gatehouse/EventTriggers/Failures/Resource') },
      { name: 'fan-out-failures', id: idAtPath(template, 'AWS::SQS::Queue', 'Gatehouse/Webhooks/FanOutFailures/Resource') },
      { name: 'inbound-mail-failures', id: idAtPath(template, 'AWS::SQS::Queue', 'Gatehouse/InboundMail/Failures/Resource') },
    ];

    it('alarms on every dead-letter queue (one per declared queue, the stream consumers\' and the mail receiver\'s failure queues) as soon as it holds a message', () => {
      const depthAlarms = alarms.filter((alarm) => alarmMetrics(alarm).some(({ name }) => name === 'ApproximateNumberOfMessagesVisible'));

      expect(depthAlarms).toHaveLength(allQueues.length + 3);
      for (const { name, id } of deadLetterQueues()) {
        const [alarm, ...others] = alarmsOn('ApproximateNumberOfMessagesVisible', { QueueName: queueName(id) });
        expect(others, name).toEqual([]);
        expect(alarm?.Properties, name).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1 });
        expect(alarmMetrics(alarm)[0], name).toMatchObject({ namespace: 'AWS/SQS', stat: 'Maximum' });
      }
      // Every dead-letter queue of the template is watched: none is left out of the declarations.
      const redriveTargets = (Object.values(template.findResources('AWS::SQS::Queue')) as CfnResource[]).flatMap(({ Properties }) => (Properties.RedrivePolicy ? [Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]] : []));
      expect(new Set(deadLetterQueues().map(({ id }) => id))).toEqual(new Set([...redriveTargets, ...deadLetterQueues().slice(-3).map(({ id }) => id)]));
    });

    it.each(allQueues.map(({ name }) => [name]))('alarms when the oldest message of %s outlives two visibility timeouts', (name) => {
      const matching = alarmsOn('ApproximateAgeOfOldestMessage', { QueueName: queueName(queueIdFor(template, name)) });

      expect(matching).toHaveLength(1);
      expect(matching[0].Properties).toMatchObject({ Threshold: oldestMessageAgeThresholdSeconds(name), ComparisonOperator: 'GreaterThanThreshold' });
      const visibility = (template.findResources('AWS::SQS::Queue')[queueIdFor(template, name)] as CfnResource).Properties.VisibilityTimeout;
      expect(oldestMessageAgeThresholdSeconds(name)).toBe(2 * visibility);
    });

    it('has one oldest-message alarm per declared queue and none on dead-letter queues', () => {
      expect(alarms.filter((alarm) => alarmMetrics(alarm).some(({ name }) => name === 'ApproximateAgeOfOldestMessage'))).toHaveLength(allQueues.length);
    });
  });

  describe('functions', () => {
    it("watches every Lambda function, the API's route functions and authorizer included, for errors and throttles, in one alarm each", () => {
      const functionIds = Object.keys(template.findResources('AWS::Lambda::Function'));
      const lambdaAlarms = alarms.filter((alarm) => alarmMetrics(alarm).some(({ name }) => name === 'Errors'));

      expect(functionIds.length).toBeGreaterThan(50);
      expect(lambdaAlarms).toHaveLength(functionIds.length);
      for (const id of functionIds) {
        const matching = alarmsOn('Errors', { FunctionName: { Ref: id } });
        expect(matching, id).toHaveLength(1);
        const metrics = alarmMetrics(matching[0]);
        expect(metrics.map(({ name }) => name).sort(), id).toEqual(['Errors', 'Throttles']);
        expect(metrics.every(({ namespace, stat, dimensions }) => namespace === 'AWS/Lambda' && stat === 'Sum' && JSON.stringify(dimensions) === JSON.stringify({ FunctionName: { Ref: id } })), id).toBe(true);
        expect(expressionOf(matching[0]), id).toBe(`IF(FILL(errors, 0) >= ${ALARM_THRESHOLDS.lambdaErrors} OR FILL(throttles, 0) >= ${ALARM_THRESHOLDS.lambdaThrottles}, 1, 0)`);
        expect(matching[0].Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      }
    });

    it("puts the alarm of a route group's function in the group's nested stack, notifying the one topic", () => {
      const nested = synthGatehouseTemplates().filter(({ path }) => path.startsWith('Gatehouse/Api/'));
      const resourcesOf = (json: { Resources: Record<string, { Type: string }> }, type: string) => Object.values(json.Resources).filter(({ Type }) => Type === type);

      expect(nested.length).toBeGreaterThan(5);
      for (const { path, json } of nested) {
        expect(resourcesOf(json, 'AWS::CloudWatch::Alarm'), path).toHaveLength(resourcesOf(json, 'AWS::Lambda::Function').length);
      }
      for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    });

    it('watches a function created after the monitoring construct too (functions are collected at synth)', () => {
      const app = new App({ context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true } });
      const stack = new GatehouseStack(app, 'Gatehouse', { dashboardSite: TEST_DASHBOARD_SITE });
      new LambdaFunction(stack, 'AddedLater', { runtime: Runtime.NODEJS_24_X, handler: 'index.handler', code: Code.fromInline('export const handler = async () => {};') });

      const later = Template.fromStack(stack);
      const id = idAtPath(later, 'AWS::Lambda::Function', 'Gatehouse/AddedLater/Resource');
      later.hasResourceProperties('AWS::CloudWatch::Alarm', {
        AlarmName: 'Gatehouse-lambda-errors-throttles-AddedLater',
        Metrics: Match.arrayWith([Match.objectLike({ MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: id } }] }) }) })]),
      });
    }, 120_000);

    it("alarms on the event triggers consumer's iterator age", () => {
      const matching = alarmsOn('IteratorAge', { FunctionName: { Ref: eventTriggerConsumerId(template) } });

      expect(matching).toHaveLength(1);
      expect(matching[0].Properties).toMatchObject({ Threshold: ALARM_THRESHOLDS.iteratorAgeMs, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 2 });
      expect(matching[0].Properties.AlarmName).toMatch(/event-trigger-iterator-age$/);
    });

    it("alarms on the stream fan-out's iterator age", () => {
      const matching = alarmsOn('IteratorAge', { FunctionName: { Ref: fanOutId(template) } });

      expect(matching).toHaveLength(1);
      expect(alarmMetrics(matching[0])[0]).toMatchObject({ namespace: 'AWS/Lambda', stat: 'Maximum' });
      expect(matching[0].Properties).toMatchObject({ Threshold: ALARM_THRESHOLDS.iteratorAgeMs, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 2 });
    });
  });

  describe('API and webhooks', () => {
    it('alarms on the 5xx rate of the v1 stage, as metric math over 5XXError and Count with a minimum request count', () => {
      const matching = alarms.filter((alarm) => alarmMetrics(alarm).some(({ name }) => name === '5XXError'));

      expect(matching).toHaveLength(1);
      const metrics = alarmMetrics(matching[0]);
      expect(metrics.map(({ name }) => name).sort()).toEqual(['5XXError', 'Count']);
      for (const metric of metrics) expect(metric).toMatchObject({ namespace: 'AWS/ApiGateway', stat: 'Sum', dimensions: { ApiName: 'Gatehouse', Stage: { Ref: expect.any(String) } } });
      expect(expressionOf(matching[0])).toBe(`IF(requests >= ${ALARM_THRESHOLDS.api5xxMinRequests}, 100 * errors / requests, 0)`);
      expect(matching[0].Properties).toMatchObject({ Threshold: ALARM_THRESHOLDS.api5xxPercent, ComparisonOperator: 'GreaterThanThreshold' });
    });

    it('alarms on the webhook failure rate from the catalog metrics, in its namespace and with its service dimension', () => {
      const matching = alarms.filter((alarm) => alarmMetrics(alarm).some(({ name }) => name === METRICS.webhookDeliveryFailures.name));

      expect(matching).toHaveLength(1);
      const metrics = alarmMetrics(matching[0]);
      expect(metrics.map(({ name }) => name).sort()).toEqual([METRICS.webhookDeliveries.name, METRICS.webhookDeliveryFailures.name].sort());
      for (const metric of metrics) expect(metric).toEqual({ namespace: METRICS_NAMESPACE, name: metric.name, dimensions: { [SERVICE_DIMENSION]: SERVICE_NAME }, stat: 'Sum' });
      expect(expressionOf(matching[0])).toBe(`IF(deliveries >= ${ALARM_THRESHOLDS.webhookMinAttempts}, 100 * failures / deliveries, 0)`);
      expect(matching[0].Properties).toMatchObject({ Threshold: ALARM_THRESHOLDS.webhookFailurePercent, EvaluationPeriods: 3 });
    });

    it('has exactly the alarms above: dead letters, oldest messages, functions, the two iterator ages, API 5xx, webhook failures', () => {
      const functions = functionIds().length;

      expect(alarms).toHaveLength(allQueues.length + 3 + allQueues.length + functions + 4);
    });
  });

  describe('dashboard', () => {
    let body: string;
    beforeAll(() => {
      const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as CfnResource[];
      expect(dashboards).toHaveLength(1);
      // The body is a Fn::Join of JSON text and references: joined with each reference as its JSON.
      const [, parts] = dashboards[0].Properties.DashboardBody['Fn::Join'] as [string, unknown[]];
      body = parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('');
    });

    it('graphs the API: requests, 4xx, 5xx, latency p50 and p99', () => {
      for (const metric of ['"Count"', '"4XXError"', '"5XXError"', '"Latency"']) expect(body).toContain(metric);
      expect(body).toMatch(/Latency.{0,200}p50/);
      expect(body).toMatch(/Latency.{0,200}p99/);
    });

    it('graphs depth and oldest-message age of every queue and the depth of every dead-letter queue', () => {
      for (const { name } of allQueues) {
        expect(body, name).toContain(JSON.stringify(queueName(queueIdFor(template, name))));
        expect(body, name).toContain(JSON.stringify(queueName(queueIdFor(template, `${name}-dlq`))));
      }
      for (const metric of ['ApproximateNumberOfMessagesVisible', 'ApproximateAgeOfOldestMessage']) expect(body).toContain(metric);
    });

    it('graphs errors, throttles, duration and concurrent executions of every function, and the iterator age', () => {
      for (const metric of ['Errors', 'Throttles', 'Duration', 'ConcurrentExecutions', 'IteratorAge']) expect(body).toContain(`"${metric}"`);
      for (const id of Object.keys(template.findResources('AWS::Lambda::Function'))) expect(body, id).toContain(JSON.stringify({ Ref: id }));
    });

    it('graphs every metric of the catalog, in its namespace with its service dimension', () => {
      for (const { name } of Object.values(METRICS)) expect(body, name).toContain(JSON.stringify([METRICS_NAMESPACE, name, SERVICE_DIMENSION, SERVICE_NAME]).slice(1, -1));
      expect(body).toMatch(/TaskDuration.{0,200}p99/);
    });

    it('shows the status of every alarm', () => {
      const alarmIds = Object.keys(template.findResources('AWS::CloudWatch::Alarm'));
      for (const id of alarmIds) expect(body, id).toContain(JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }));
    });
  });
});
