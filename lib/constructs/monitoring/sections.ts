import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { ComparisonOperator, MathExpression, Metric, type Alarm, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { Function as LambdaFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { allQueues } from '#shared/config/topology';
import { METRICS, METRICS_NAMESPACE, SERVICE_DIMENSION, SERVICE_NAME, type MetricDefinition, type MetricKey } from '#shared/observability/metric-catalog';
import { ALARM_THRESHOLDS, oldestMessageAgeThresholdSeconds } from '#lib/constructs/monitoring/alarm-thresholds';
import { chunks, FIVE_MINUTES, graph, graphs } from '#lib/constructs/monitoring/widgets';

/**
 * What each part of the service is watched by: every section below creates its alarms through
 * `AddAlarm` (which names them and wires them to the topic) and returns its rows of the dashboard.
 */
export interface AlarmSpec {
  metric: IMetric;
  threshold: number;
  description: string;
  evaluationPeriods?: number;
  comparison?: ComparisonOperator;
}
/** `watched`: what the alarm is about, when it may sit in a nested stack (a function); the alarm goes where it is. */
export type AddAlarm = (id: string, name: string, spec: AlarmSpec, watched?: IConstruct) => Alarm;

export type MonitoredQueue = IQueue & { deadLetterQueue?: { queue: IQueue } };

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

export function apiSection(alarm: AddAlarm, stage: Stage): IWidget[][] {
  const requests = stage.metricCount({ period: FIVE_MINUTES, statistic: 'Sum', label: 'requests' });
  const serverErrors = stage.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', label: '5xx' });
  const { api5xxPercent, api5xxMinRequests } = ALARM_THRESHOLDS;
  alarm('Api5xxRate', 'api-5xx-rate', {
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

export function queueSection(alarm: AddAlarm, queues: ReadonlyMap<string, MonitoredQueue>, otherDeadLetterQueues: Readonly<Record<string, IQueue>>): IWidget[][] {
  const depth: IMetric[] = [];
  const ages: IMetric[] = [];
  const deadLetterDepth: IMetric[] = [];
  const deadLetterQueues: [string, IQueue][] = [];
  for (const { name } of allQueues) {
    const queue = queues.get(name);
    if (!queue) throw new Error(`Monitoring: no queue for ${name} of topology.ts.`);
    const age = queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum', label: name });
    const threshold = oldestMessageAgeThresholdSeconds(name);
    alarm(`OldestMessage-${name}`, `queue-oldest-message-${name}`, {
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
  for (const [name, queue] of [...deadLetterQueues, ...Object.entries(otherDeadLetterQueues)]) {
    const visible = queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum', label: name });
    alarm(`DeadLetters-${name}`, `dlq-depth-${name}`, {
      metric: visible,
      threshold: 0,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: `${name} holds messages: work was given up on and waits for an operator.`,
    });
    deadLetterDepth.push(visible);
  }
  return [[graph('Queue depth (visible messages)', depth, 8), graph('Oldest message age (s)', ages, 8), graph('Dead-letter queue depth', deadLetterDepth, 8)]];
}

/** Graphs every function and alarms on each; `label` names a function on the dashboard and in its alarm's name. */
export function functionSection(alarm: AddAlarm, functions: LambdaFunction[], label: (fn: LambdaFunction) => string): IWidget[][] {
  const errors: IMetric[] = [];
  const throttles: IMetric[] = [];
  const durations: IMetric[] = [];
  const concurrency: IMetric[] = [];
  for (const fn of functions) {
    const name = label(fn);
    const fnErrors = fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: name });
    const fnThrottles = fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum', label: name });
    // One alarm per function for both, so a function costs its template one alarm; the dashboard
    // graphs errors and throttles apart, to tell which it was.
    alarm(`Failures-${name}`, `lambda-errors-throttles-${name}`, {
      metric: new MathExpression({
        expression: `IF(FILL(errors, 0) >= ${ALARM_THRESHOLDS.lambdaErrors} OR FILL(throttles, 0) >= ${ALARM_THRESHOLDS.lambdaThrottles}, 1, 0)`,
        usingMetrics: { errors: fnErrors, throttles: fnThrottles },
        period: FIVE_MINUTES,
        label: `${name} errors or throttles`,
      }),
      threshold: 1,
      description: `The function ${name} failed (crash, timeout or out of memory: ${ALARM_THRESHOLDS.lambdaErrors}+ Errors) or was throttled (${ALARM_THRESHOLDS.lambdaThrottles}+ Throttles) in the last 5 minutes.`,
    }, fn);
    errors.push(fnErrors);
    throttles.push(fnThrottles);
    durations.push(fn.metricDuration({ statistic: 'p99', label: name }));
    concurrency.push(fn.metric('ConcurrentExecutions', { statistic: 'Maximum', label: name }));
  }
  return [
    [...graphs('Lambda errors', errors, 12), ...graphs('Lambda throttles', throttles, 12)],
    [...graphs('Lambda duration p99 (ms)', durations, 12), ...graphs('Lambda concurrent executions', concurrency, 12)],
  ];
}

export function streamSection(alarm: AddAlarm, streamConsumer: IFunction, triggerConsumer?: IFunction): IWidget[][] {
  const iteratorAge = streamConsumer.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum', label: 'fan-out iterator age (ms)' });
  const minutes = ALARM_THRESHOLDS.iteratorAgeMs / 60_000;
  alarm('StreamIteratorAge', 'stream-iterator-age', {
    metric: iteratorAge,
    threshold: ALARM_THRESHOLDS.iteratorAgeMs,
    evaluationPeriods: 2,
    comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    description: `The stream fan-out reads records more than ${minutes} minutes old, for 10 minutes: webhooks and event fan-out lag behind the table.`,
  });
  if (!triggerConsumer) return [[graph('Table stream: fan-out iterator age (ms)', [iteratorAge], 24)]];
  const triggerAge = triggerConsumer.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum', label: 'event triggers iterator age (ms)' });
  alarm('EventTriggerIteratorAge', 'event-trigger-iterator-age', {
    metric: triggerAge,
    threshold: ALARM_THRESHOLDS.iteratorAgeMs,
    evaluationPeriods: 2,
    comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    description: `The event triggers' stream consumer reads records more than ${minutes} minutes old, for 10 minutes: triggered tasks start that late.`,
  });
  return [[graph('Table stream: iterator age of its two readers (ms)', [iteratorAge, triggerAge], 24)]];
}

/** The business metrics of the catalog (tasks, scans, approvals, webhooks), and the webhook failure alarm. */
export function catalogSection(alarm: AddAlarm): IWidget[][] {
  const deliveries = catalogMetric(METRICS.webhookDeliveries, 'Sum');
  const failures = catalogMetric(METRICS.webhookDeliveryFailures, 'Sum');
  const { webhookFailurePercent, webhookMinAttempts } = ALARM_THRESHOLDS;
  alarm('WebhookFailureRate', 'webhook-failure-rate', {
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
