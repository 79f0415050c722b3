import { ArnFormat, Aspects, CfnCondition, CfnOutput, CfnParameter, Duration, Fn, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSubscription, Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import { allQueues, visibilityTimeoutSeconds } from '#shared/config/topology';
import { METRICS, METRICS_NAMESPACE, SERVICE_DIMENSION, SERVICE_NAME, type MetricDefinition, type MetricKey } from '#shared/observability/metric-catalog';

/** The thresholds of the alarms, in one place for the runbook (docs/operating/alarms.md) and the tests. */
export const ALARM_THRESHOLDS = {
  /** Percentage of API requests answered 5xx over 5 minutes... */
  api5xxPercent: 5,
  /** ...once at least this many requests came in those 5 minutes (a single 5xx among 3 requests is not a rate). */
  api5xxMinRequests: 20,
  /** Failed invocations (crash, timeout, out of memory) in 5 minutes; handled errors are responses, not these. */
  lambdaErrors: 1,
  /** Throttled invocations in 5 minutes. */
  lambdaThrottles: 1,
  /** Age of the stream's newest record when the fan-out read it, for two 5-minute periods in a row. */
  iteratorAgeMs: 5 * 60 * 1000,
  /** Percentage of webhook delivery attempts that failed, over 15 minutes (three 5-minute periods)... */
  webhookFailurePercent: 20,
  /** ...of periods with at least this many attempts. */
  webhookMinAttempts: 10,
} as const;

/**
 * The oldest message of a queue may wait two visibility timeouts (each six times its consumer's
 * timeout, topology.ts) before the alarm fires: by then it has failed twice, or the consumers do
 * not keep up. A healthy queue's oldest message is seconds old.
 */
export function oldestMessageAgeThresholdSeconds(queueName: string): number {
  return 2 * visibilityTimeoutSeconds(queueName);
}

/** The catalog's metrics as the dashboard groups them; a catalog metric in no panel gets one of its own. */
const CATALOG_PANELS: readonly { title: string; metrics: readonly MetricKey[] }[] = [
  { title: 'Tasks', metrics: ['tasksCreated', 'tasksCompleted', 'tasksFailed', 'tasksCancelled', 'tasksTimedOut'] },
  { title: 'Task duration', metrics: ['taskDuration'] },
  { title: 'Scans', metrics: ['scansCreated', 'scansCompleted', 'scansFailed', 'scansRedriven'] },
  { title: 'Scan duration', metrics: ['scanDuration'] },
  { title: 'Approvals', metrics: ['approvalsRequested', 'approvalsResolved', 'approvalsPending'] },
  { title: 'Webhook deliveries', metrics: ['webhookDeliveries', 'webhookDeliveryFailures', 'webhookDeliveriesDeadLettered'] },
  { title: 'Rate-limited requests (429)', metrics: ['rateLimited'] },
];
/** Sampled levels rather than event counts: their sum over a period means nothing. */
const GAUGES: ReadonlySet<MetricKey> = new Set(['approvalsPending']);

/** CloudWatch draws at most 100 metrics per graph and lists at most 100 alarms per status widget. */
const MAX_PER_WIDGET = 100;
const FIVE_MINUTES = Duration.minutes(5);

export interface MonitoringProps {
  /** The API's deployed stage: requests, errors and latency are per stage. */
  stage: Stage;
  /** Every queue of topology.ts by name (`Tasks.queuesByName`), each with its dead-letter queue. */
  queues: ReadonlyMap<string, IQueue & { deadLetterQueue?: { queue: IQueue } }>;
  /** Dead-letter queues that are no declared queue's redrive target, by name: the stream fan-out's failure queue. */
  otherDeadLetterQueues: Readonly<Record<string, IQueue>>;
  /** The table stream's consumer, whose iterator age is watched. */
  streamConsumer: IFunction;
  /** The key of the alarm topic (`Keys.alarms`); CloudWatch alarms of this stack may use it. */
  topicKey: IKey;
}

/**
 * Alarms, their topic and the dashboard of the whole service.
 *
 * Every alarm notifies one SNS topic (KMS-encrypted, TLS only), on ALARM and on OK, so the team
 * sees recovery too; the stack parameter `AlarmEmail` subscribes an address, or nobody when empty.
 *
 * Alarms and dashboard are derived, not listed: a DLQ alarm per declared queue (topology.ts), an
 * oldest-message alarm per declared queue, one errors-or-throttles alarm per Lambda function of the stack
 * (one, not two: the stack stays under CloudFormation's 500 resources).
 * Functions are collected when the app synthesizes (an aspect), after every construct exists, so a
 * function added anywhere in the stack, before or after this construct, is watched.
 */
export class Monitoring extends Construct {
  public readonly topic: Topic;
  public readonly alarmEmail: CfnParameter;
  /** Every alarm, once the stack is synthesized. */
  public readonly alarms: Alarm[] = [];
  private readonly alarmPrefix: string;
  private built = false;

  public constructor(
    scope: Construct,
    id: string,
    private readonly props: MonitoringProps,
  ) {
    super(scope, id);
    const stack = Stack.of(this);
    // Alarm names start with the stack name: notifications say which deployment, and the topic's
    // and key's policies admit exactly these alarms.
    this.alarmPrefix = `${stack.stackName}-`;
    const alarmArns = stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: `${this.alarmPrefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    // Confused-deputy guard: CloudWatch may act only for this account's alarms of this stack.
    const onlyOurAlarms = { StringEquals: { 'aws:SourceAccount': stack.account }, ArnLike: { 'aws:SourceArn': alarmArns } };

    this.topic = new Topic(this, 'AlarmTopic', { displayName: `${stack.stackName} alarms`, masterKey: props.topicKey, enforceSSL: true });
    // A topic policy replaces SNS's default one, which is how CloudWatch would otherwise publish.
    this.topic.addToResourcePolicy(new PolicyStatement({ principals: [cloudWatch], actions: ['sns:Publish'], resources: [this.topic.topicArn], conditions: onlyOurAlarms }));
    // CloudWatch publishing to an encrypted topic needs the key; resource "*" in a key policy is this key.
    props.topicKey.addToResourcePolicy(new PolicyStatement({ principals: [cloudWatch], actions: ['kms:Decrypt', 'kms:GenerateDataKey*'], resources: ['*'], conditions: onlyOurAlarms }));

    this.alarmEmail = new CfnParameter(this, 'AlarmEmail', {
      type: 'String',
      default: '',
      description: 'E-mail address notified of every Gatehouse alarm and its recovery (SNS; confirm the subscription mail). Empty: no subscription; subscribe to the AlarmTopic output later.',
      allowedPattern: '^$|^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
      constraintDescription: 'must be one e-mail address, or empty for no subscription.',
    });
    this.alarmEmail.overrideLogicalId('AlarmEmail');
    const emailGiven = new CfnCondition(this, 'AlarmEmailGiven', { expression: Fn.conditionNot(Fn.conditionEquals(this.alarmEmail.valueAsString, '')) });
    emailGiven.overrideLogicalId('AlarmEmailGiven');
    const subscription = new CfnSubscription(this, 'AlarmEmailSubscription', { topicArn: this.topic.topicArn, protocol: 'email', endpoint: this.alarmEmail.valueAsString });
    subscription.cfnOptions.condition = emailGiven;
    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn, description: 'SNS topic every alarm notifies; subscribe more addresses or endpoints to it.' }).overrideLogicalId('AlarmTopicArn');

    // Built when the app synthesizes, once every function of the stack exists.
    Aspects.of(this).add({ visit: (node: IConstruct) => node === this && this.build() });
  }

  private build(): void {
    if (this.built) return;
    this.built = true;
    const functions = this.stackFunctions();
    const sections = [
      ...this.apiSection(),
      ...this.queueSection(),
      ...this.functionSection(functions),
      ...this.streamSection(),
      ...this.catalogSection(),
    ];
    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${Stack.of(this).stackName}-service` });
    dashboard.addWidgets(new TextWidget({ markdown: `# ${Stack.of(this).stackName}\nAlarms are explained in docs/operating/alarms.md.`, width: 24, height: 2 }));
    for (const chunk of chunks(this.alarms, MAX_PER_WIDGET)) dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: chunk, width: 24, height: 6 }));
    for (const row of sections) dashboard.addWidgets(...row);
  }

  /** Every Lambda function of the stack, in construct-path order (stable templates). */
  private stackFunctions(): LambdaFunction[] {
    return Stack.of(this)
      .node.findAll()
      .filter((node): node is LambdaFunction => node instanceof LambdaFunction)
      .sort((a, b) => a.node.path.localeCompare(b.node.path));
  }

  /** `Gatehouse/Api/CreateTask` → `Api/CreateTask`: how functions are named on the dashboard and in alarm names. */
  private label(construct: IConstruct): string {
    return construct.node.path.slice(Stack.of(this).node.path.length + 1);
  }

  private alarm(id: string, name: string, props: { metric: IMetric; threshold: number; description: string; evaluationPeriods?: number; comparison?: ComparisonOperator }): Alarm {
    // Construct ids may not contain "/", which function labels do.
    const alarm = new Alarm(this, id.replace(/\//g, '-'), {
      alarmName: `${this.alarmPrefix}${name}`.replace(/[^A-Za-z0-9_.-]/g, '-'),
      alarmDescription: `${props.description} Runbook: docs/operating/alarms.md.`,
      metric: props.metric,
      threshold: props.threshold,
      evaluationPeriods: props.evaluationPeriods ?? 1,
      comparisonOperator: props.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No data means nothing happened (no requests, no messages, no invocations): not an alarm.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
    return alarm;
  }

  private apiSection(): IWidget[][] {
    const { stage } = this.props;
    const requests = stage.metricCount({ period: FIVE_MINUTES, statistic: 'Sum', label: 'requests' });
    const serverErrors = stage.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', label: '5xx' });
    const { api5xxPercent, api5xxMinRequests } = ALARM_THRESHOLDS;
    this.alarm('Api5xxRate', 'api-5xx-rate', {
      metric: new MathExpression({
        // No rate below the minimum number of requests: one failure among three requests is not 33 %.
        expression: `IF(requests >= ${api5xxMinRequests}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        period: FIVE_MINUTES,
        label: '5xx %',
      }),
      threshold: api5xxPercent,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: `More than ${api5xxPercent} % of API requests were answered 5xx over 5 minutes (with at least ${api5xxMinRequests} requests).`,
    });
    return [
      [
        graph('API requests', [requests], 6),
        graph('API 4xx and 5xx', [stage.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum', label: '4xx' }), serverErrors], 6),
        graph('API latency', [stage.metricLatency({ statistic: 'p50', label: 'p50' }), stage.metricLatency({ statistic: 'p99', label: 'p99' })], 6),
        graph('API integration latency', [stage.metricIntegrationLatency({ statistic: 'p50', label: 'p50' }), stage.metricIntegrationLatency({ statistic: 'p99', label: 'p99' })], 6),
      ],
    ];
  }

  private queueSection(): IWidget[][] {
    const depth: IMetric[] = [];
    const ages: IMetric[] = [];
    const deadLetterDepth: IMetric[] = [];
    const deadLetterQueues: [string, IQueue][] = [];
    for (const { name } of allQueues) {
      const queue = this.props.queues.get(name);
      if (!queue) throw new Error(`Monitoring: no queue for ${name} of topology.ts.`);
      const age = queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum', label: name });
      const threshold = oldestMessageAgeThresholdSeconds(name);
      this.alarm(`OldestMessage-${name}`, `queue-oldest-message-${name}`, {
        metric: age,
        threshold,
        comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
        description: `The oldest message of ${name} waited more than ${threshold} s (two visibility timeouts): its consumer fails or does not keep up.`,
      });
      ages.push(age);
      depth.push(queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum', label: name }));
      if (!queue.deadLetterQueue) throw new Error(`Monitoring: ${name} has no dead-letter queue.`);
      deadLetterQueues.push([`${name}-dlq`, queue.deadLetterQueue.queue]);
    }
    for (const [name, queue] of [...deadLetterQueues, ...Object.entries(this.props.otherDeadLetterQueues)]) {
      const visible = queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum', label: name });
      this.alarm(`DeadLetters-${name}`, `dlq-depth-${name}`, {
        metric: visible,
        threshold: 0,
        comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
        description: `${name} holds messages: work was given up on and waits for an operator.`,
      });
      deadLetterDepth.push(visible);
    }
    return [[graph('Queue depth (visible messages)', depth, 8), graph('Oldest message age (s)', ages, 8), graph('Dead-letter queue depth', deadLetterDepth, 8)]];
  }

  private functionSection(functions: LambdaFunction[]): IWidget[][] {
    const errors: IMetric[] = [];
    const throttles: IMetric[] = [];
    const durations: IMetric[] = [];
    const concurrency: IMetric[] = [];
    for (const fn of functions) {
      const label = this.label(fn);
      const fnErrors = fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label });
      const fnThrottles = fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum', label });
      // One alarm per function for both: two would put the stack over CloudFormation's 500
      // resources. The dashboard graphs errors and throttles apart, to tell which it was.
      this.alarm(`Failures-${label}`, `lambda-errors-throttles-${label}`, {
        metric: new MathExpression({
          expression: `IF(FILL(errors, 0) >= ${ALARM_THRESHOLDS.lambdaErrors} OR FILL(throttles, 0) >= ${ALARM_THRESHOLDS.lambdaThrottles}, 1, 0)`,
          usingMetrics: { errors: fnErrors, throttles: fnThrottles },
          period: FIVE_MINUTES,
          label: `${label} errors or throttles`,
        }),
        threshold: 1,
        description: `The function ${label} failed (crash, timeout or out of memory: ${ALARM_THRESHOLDS.lambdaErrors}+ Errors) or was throttled (${ALARM_THRESHOLDS.lambdaThrottles}+ Throttles) in the last 5 minutes.`,
      });
      errors.push(fnErrors);
      throttles.push(fnThrottles);
      durations.push(fn.metricDuration({ statistic: 'p99', label }));
      concurrency.push(fn.metric('ConcurrentExecutions', { statistic: 'Maximum', label }));
    }
    return [
      [...graphs('Lambda errors', errors, 12), ...graphs('Lambda throttles', throttles, 12)],
      [...graphs('Lambda duration p99 (ms)', durations, 12), ...graphs('Lambda concurrent executions', concurrency, 12)],
    ];
  }

  private streamSection(): IWidget[][] {
    const iteratorAge = this.props.streamConsumer.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum', label: 'fan-out iterator age (ms)' });
    const minutes = ALARM_THRESHOLDS.iteratorAgeMs / 60_000;
    this.alarm('StreamIteratorAge', 'stream-iterator-age', {
      metric: iteratorAge,
      threshold: ALARM_THRESHOLDS.iteratorAgeMs,
      evaluationPeriods: 2,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: `The stream fan-out reads records more than ${minutes} minutes old, for 10 minutes: webhooks and event fan-out lag behind the table.`,
    });
    return [[graph('Table stream: fan-out iterator age (ms)', [iteratorAge], 24)]];
  }

  private catalogSection(): IWidget[][] {
    const deliveries = catalogMetric(METRICS.webhookDeliveries, 'Sum');
    const failures = catalogMetric(METRICS.webhookDeliveryFailures, 'Sum');
    const { webhookFailurePercent, webhookMinAttempts } = ALARM_THRESHOLDS;
    this.alarm('WebhookFailureRate', 'webhook-failure-rate', {
      metric: new MathExpression({
        expression: `IF(deliveries >= ${webhookMinAttempts}, 100 * failures / deliveries, 0)`,
        usingMetrics: { deliveries, failures },
        period: FIVE_MINUTES,
        label: 'failed deliveries %',
      }),
      threshold: webhookFailurePercent,
      evaluationPeriods: 3,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: `More than ${webhookFailurePercent} % of webhook delivery attempts failed for 15 minutes (with at least ${webhookMinAttempts} attempts per 5 minutes).`,
    });

    const listed = new Set(CATALOG_PANELS.flatMap(({ metrics }) => metrics));
    const unlisted = (Object.keys(METRICS) as MetricKey[]).filter((key) => !listed.has(key)).map((key) => ({ title: METRICS[key].name, metrics: [key] }));
    const widgets = [...CATALOG_PANELS, ...unlisted].map(({ title, metrics }) => graph(title, metrics.flatMap(catalogSeries), 8));
    return chunks(widgets, 3);
  }
}

/** A catalog metric as published: namespace Gatehouse, the one dimension service=gatehouse. */
function catalogMetric(definition: MetricDefinition, statistic: string, label = definition.name): Metric {
  return new Metric({ namespace: METRICS_NAMESPACE, metricName: definition.name, dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME }, statistic, period: FIVE_MINUTES, label });
}

/** Counts as sums, gauges as their maximum, durations as p50 and p99. */
function catalogSeries(key: MetricKey): Metric[] {
  const definition = METRICS[key];
  if (definition.unit === 'Milliseconds') return [catalogMetric(definition, 'p50', `${definition.name} p50`), catalogMetric(definition, 'p99', `${definition.name} p99`)];
  return [catalogMetric(definition, GAUGES.has(key) ? 'Maximum' : 'Sum')];
}

function graph(title: string, left: IMetric[], width: number): GraphWidget {
  return new GraphWidget({ title, left, width, height: 6 });
}

/** One graph, or several numbered ones when there are more metrics than a graph can draw. */
function graphs(title: string, metrics: IMetric[], width: number): GraphWidget[] {
  const parts = chunks(metrics, MAX_PER_WIDGET);
  return parts.map((part, index) => graph(parts.length > 1 ? `${title} (${index + 1}/${parts.length})` : title, part, width));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
